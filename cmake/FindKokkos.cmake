# FindKokkos: Kokkos from Debian's libtrilinos-kokkos-dev (Kokkos 3.4, Serial backend).
#
# Debian's installed KokkosConfig.cmake sets INTERFACE_INCLUDE_DIRECTORIES to
# /usr/lib/include, which does not exist, so find_package(Kokkos CONFIG) fails. This module
# points at the real headers (/usr/include/trilinos) and libtrilinos_kokkoscore instead and
# defines the imported target Kokkos::kokkos that the rest of the build links.
find_path(Kokkos_INCLUDE_DIR Kokkos_Core.hpp PATH_SUFFIXES trilinos kokkos)
find_library(Kokkos_CORE_LIBRARY NAMES trilinos_kokkoscore kokkoscore)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Kokkos REQUIRED_VARS Kokkos_INCLUDE_DIR Kokkos_CORE_LIBRARY)
if(Kokkos_FOUND AND NOT TARGET Kokkos::kokkos)
  add_library(Kokkos::kokkos UNKNOWN IMPORTED)
  set_target_properties(Kokkos::kokkos PROPERTIES
    IMPORTED_LOCATION "${Kokkos_CORE_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Kokkos_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${CMAKE_DL_LIBS}")
  # Kokkos headers are third-party: keep them out of -Werror.
  set_property(TARGET Kokkos::kokkos PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${Kokkos_INCLUDE_DIR}")
endif()
mark_as_advanced(Kokkos_INCLUDE_DIR Kokkos_CORE_LIBRARY)
