# Debian packages through CPack (`cpack -G DEB` in a build tree; scripts/deb-packages):
#   flowtune         the `tune` binary and the board profiles (share/flowtune/boards), the
#                    bundled Middlebury sequences (share/flowtune/data), bash completion, and
#                    the prebuilt kernel cache when FLOWTUNE_PREBUILT_KERNELS_DIR names one
#                    (share/flowtune/kernels); its Depends come from dpkg-shlibdeps.
#   libflowtune-dev  the deployment library flowtune::tvl1: headers, static library, the CMake
#                    package (find_package(flowtune CONFIG)) and a pkg-config file (flowtune.pc).
include(GNUInstallDirs)

install(TARGETS tune RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tune)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/boards/ DESTINATION ${CMAKE_INSTALL_DATADIR}/flowtune/boards
        COMPONENT tune FILES_MATCHING PATTERN "*.toml")
install(FILES ${PROJECT_SOURCE_DIR}/cli/completion/tune.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME tune COMPONENT tune)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/middlebury
        DESTINATION ${CMAKE_INSTALL_DATADIR}/flowtune/data COMPONENT tune)
# The prebuilt kernel cache (scripts/prebuilt-kernels; docs/jetson.md, "Prebuilt kernels"): its
# <arch>-nvrtc<version>/ folders go to share/flowtune/kernels, where `tune` looks beside its
# bin/ (variants/cuda/nvrtc_build.hpp, prebuilt_kernel_dirs); the script's own logs stay out.
set(FLOWTUNE_PREBUILT_KERNELS_DIR "" CACHE PATH
    "a folder of prebuilt kernel caches (scripts/prebuilt-kernels) to install with tune")
if(FLOWTUNE_PREBUILT_KERNELS_DIR)
  if(NOT IS_DIRECTORY "${FLOWTUNE_PREBUILT_KERNELS_DIR}")
    message(FATAL_ERROR "FLOWTUNE_PREBUILT_KERNELS_DIR=${FLOWTUNE_PREBUILT_KERNELS_DIR}: no such folder")
  endif()
  install(DIRECTORY ${FLOWTUNE_PREBUILT_KERNELS_DIR}/
          DESTINATION ${CMAKE_INSTALL_DATADIR}/flowtune/kernels COMPONENT tune
          FILES_MATCHING REGEX "/sm_[0-9]+-nvrtc[0-9.]+/[^/]+[.](cubin|log|tsv)$")
endif()

set(FLOWTUNE_PC_CUDA_LIBS "")
if(FLOWTUNE_HAVE_CUDA)
  set(FLOWTUNE_PC_CUDA_LIBS "-lnvrtc -lcudart_static -ldl -lrt -lpthread")
endif()
# Relocatable: the prefix from the .pc file's own folder (a package installed under any root).
file(RELATIVE_PATH FLOWTUNE_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(${PROJECT_SOURCE_DIR}/cmake/flowtune.pc.in ${PROJECT_BINARY_DIR}/flowtune.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/flowtune.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT dev)

set(CPACK_PACKAGE_NAME flowtune)
set(CPACK_PACKAGE_VENDOR "flowtune")
set(CPACK_PACKAGE_CONTACT "flowtune maintainers <flowtune@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Autotuning and design-space exploration of GPU workloads (TV-L1 optical flow)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tune dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_TUNE_PACKAGE_NAME flowtune)
set(CPACK_DEBIAN_TUNE_PACKAGE_SECTION science)
set(CPACK_DEBIAN_TUNE_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libflowtune-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# Link-only dependencies of flowtune::tvl1 (cmake/flowtuneConfig.cmake.in finds them); in a
# CUDA build also the CUDA toolkit (NVRTC, cudart_static), which JetPack and NVIDIA's
# repositories install outside Debian's names, so it is not a Depends.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libpng-dev, libtrilinos-kokkos-dev, libhwy-dev, cmake (>= 3.16) | pkg-config")
# The OpenCV adapter <flowtune/opencv.hpp> needs OpenCV's core module, only where it is used.
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "libopencv-core-dev")
set(CPACK_COMPONENT_TUNE_DESCRIPTION "the tune command line and the board profiles")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "flowtune::tvl1: headers, static library, CMake package and pkg-config file")
include(CPack)
