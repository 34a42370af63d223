# Cross-compiling the host code for aarch64 (Jetson boards) with Debian's cross toolchain
# against Debian's arm64 multiarch -dev packages (scripts/cross-aarch64 installs both). The
# compiler is GCC 11 (g++-11-aarch64-linux-gnu), JetPack 6's GCC, with its own libstdc++: the
# closest Debian 12 has to JetPack 5's GCC 9 (override with -DFLOWTUNE_CROSS_GCC_SUFFIX=, for
# the default aarch64-linux-gnu-g++, GCC 12). Libraries are found in /usr/lib/aarch64-linux-gnu,
# headers in /usr/include (shared between architectures). CUDA: without
# FLOWTUNE_CROSS_CUDA_ROOT the CUDA toolkit is switched off (host code only); with it, a CUDA
# toolkit whose nvcc runs here and whose targets/aarch64-linux holds the aarch64 headers and
# libraries (scripts/cross-aarch64-cuda assembles CUDA 11.8's from Debian's packages) compiles
# the GPU variants too, with this cross compiler as nvcc's host compiler.
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
set(FLOWTUNE_CROSS_CUDA_ROOT "" CACHE PATH
    "A CUDA toolkit with targets/aarch64-linux for the aarch64 GPU variants (empty: host only)")
if(FLOWTUNE_CROSS_CUDA_ROOT)
  set(CMAKE_CUDA_COMPILER "${FLOWTUNE_CROSS_CUDA_ROOT}/bin/nvcc")
  set(CMAKE_CUDA_HOST_COMPILER "${CMAKE_CXX_COMPILER}")
  set(CUDAToolkit_ROOT "${FLOWTUNE_CROSS_CUDA_ROOT}")
  # The toolkit's aarch64 headers and libraries are searched although they lie outside the
  # arm64 multiarch folders.
  list(APPEND CMAKE_FIND_ROOT_PATH "${FLOWTUNE_CROSS_CUDA_ROOT}/targets/aarch64-linux")
  # This machine's own (x86) CUDA installation is never linked: NVRTC's libcuda dependency is
  # the toolkit's aarch64 stub.
  list(APPEND CMAKE_IGNORE_PATH /usr/local/cuda/lib64 /usr/local/cuda/lib64/stubs /usr/local/lib64
       /usr/local/lib64/stubs)
else()
  set(CMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit ON)
endif()

# Tests and tools built for aarch64 run under qemu-user where it is installed.
find_program(FLOWTUNE_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(FLOWTUNE_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${FLOWTUNE_QEMU_AARCH64})
endif()
