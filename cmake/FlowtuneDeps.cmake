# Third-party dependencies, all from Debian's packages (scripts/setup installs them).

if(FLOWTUNE_STATIC_DEPS)
  # Device build: the GPU machine has no Debian -dev packages, so link the .a archives
  # Debian ships and keep only the CUDA toolkit and Kokkos as shared libraries.
  set(Boost_USE_STATIC_LIBS ON)
  set(PNG_USE_STATIC_LIBS ON)
  set(CMAKE_FIND_LIBRARY_SUFFIXES .a ${CMAKE_FIND_LIBRARY_SUFFIXES})
endif()

find_package(Threads REQUIRED)
find_package(PNG REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(SQLiteCpp REQUIRED)
find_package(tomlplusplus REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(Boost REQUIRED COMPONENTS program_options)
find_package(Kokkos MODULE REQUIRED)  # cmake/FindKokkos.cmake: see there why not CONFIG
# The SIMD CPU variant (kernels/simd/): Google Highway (libhwy-dev; a shared library: its
# run-time dispatch lives in libhwy.so) and OpenMP (GCC's libgomp).
find_package(hwy REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)

# CUDA: the toolkit (NVRTC + the static runtime) is optional; host-only parts build without it.
# It needs CMake 3.18 (FindCUDAToolkit, CUDA_ARCHITECTURES, CUDA C++17); older CMake (JetPack 5's
# Ubuntu 20.04 has 3.16) builds host-only, and says so: `pip install cmake` gives a newer one.
if(CMAKE_VERSION VERSION_LESS 3.18)
  message(WARNING "flowtune: CMake ${CMAKE_VERSION} < 3.18 cannot build the CUDA variants; "
                  "building host-only (python3 -m pip install cmake for a newer CMake)")
else()
  find_package(CUDAToolkit QUIET)
endif()
if(CUDAToolkit_FOUND AND TARGET CUDA::nvrtc AND TARGET CUDA::cudart_static)
  set(FLOWTUNE_HAVE_CUDA ON)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    set(CMAKE_CUDA_STANDARD 17)
    enable_language(CUDA)
  endif()
  message(STATUS "flowtune: CUDA ${CUDAToolkit_VERSION} found, GPU variants enabled")
else()
  set(FLOWTUNE_HAVE_CUDA OFF)
  message(STATUS "flowtune: no CUDA toolkit, building host-only")
endif()
