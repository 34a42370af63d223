# Linking of self-registering code. Variants and workloads register themselves from their own
# .cpp files through static objects (FLOWTUNE_REGISTER_VARIANTS in variants/variant.hpp,
# FLOWTUNE_REGISTER_WORKLOAD in workloads/workload.hpp). Nothing references those objects, so a
# linker taking them from a static archive would drop them; the archives that hold them are
# therefore linked whole.
#
# flowtune_link_registered(<target> <library>...): the INTERFACE library <target> links every
# static <library> normally (usage requirements, build order) and, as a link option of its
# consumers, whole (--whole-archive <archive> --no-whole-archive). Link options precede the
# objects and libraries on the link line, so the whole archive is loaded first whatever order
# CMake gives the libraries; the normal occurrence later on the line then adds nothing. Works
# with CMake 3.16 (no $<LINK_LIBRARY:WHOLE_ARCHIVE>, which needs 3.24) and GNU ld / lld.
function(flowtune_link_registered target)
  foreach(library IN LISTS ARGN)
    target_link_libraries(${target} INTERFACE ${library})
    target_link_options(${target} INTERFACE
      "LINKER:--whole-archive,$<TARGET_FILE:${library}>,--no-whole-archive")
  endforeach()
endfunction()
