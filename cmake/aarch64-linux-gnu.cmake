# Cross-compiling the host code for aarch64 (Jetson boards) with Debian's cross toolchain
# against Debian's arm64 multiarch -dev packages (scripts/cross-aarch64 installs both). The
# compiler is GCC 11 (g++-11-aarch64-linux-gnu), JetPack 6's GCC, with its own libstdc++: the
# closest Debian 12 has to JetPack 5's GCC 9 (override with -DFLOWTUNE_CROSS_GCC_SUFFIX=, for
# the default aarch64-linux-gnu-g++, GCC 12). Libraries are found in /usr/lib/aarch64-linux-gnu,
# headers in /usr/include (shared between architectures). CUDA is not cross-compiled: the
# CUDA toolkit is switched off (build on the board for the GPU variants).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(FLOWTUNE_CROSS_GCC_SUFFIX "-11" CACHE STRING "Suffix of aarch64-linux-gnu-g++ (-11: GCC 11)")
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc${FLOWTUNE_CROSS_GCC_SUFFIX})
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++${FLOWTUNE_CROSS_GCC_SUFFIX})
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# Programs (git, the code generators) run on the build machine; libraries and packages are
# the arm64 ones only: the build machine's own lib/x86_64-linux-gnu is never searched.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu
                      /usr/lib/x86_64-linux-gnu/cmake)
set(CMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit ON)

# Tests and tools built for aarch64 run under qemu-user where it is installed.
find_program(FLOWTUNE_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(FLOWTUNE_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${FLOWTUNE_QEMU_AARCH64})
endif()
