# The deploy_example ctest (tests/deploy/CMakeLists.txt): cmake -P with TUNE, SOURCE_DIR,
# BUILD_DIR, WORK_DIR, GENERATOR, CXX_COMPILER, BUILD_TYPE; CUDA_COMPILER and XZ may be empty.
cmake_minimum_required(VERSION 3.25)

function(step what)
  string(TIMESTAMP now "%s")
  message(STATUS "deploy_example: ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "deploy_example: ${what} failed (${rc}):\n${ARGN}\n${out}")
  endif()
  string(TIMESTAMP after "%s")
  math(EXPR took "${after} - ${now}")
  message(STATUS "  ok in ${took} s")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(seq ${SOURCE_DIR}/data/middlebury/RubberWhale)

step("cmake --install to ${prefix}"
     ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${BUILD_TYPE})
foreach(f include/flowtune/flowtune.hpp include/flowtune/kernels/image.hpp
          lib/cmake/flowtune/flowtuneConfig.cmake lib/cmake/flowtune/flowtuneConfigVersion.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "deploy_example: ${prefix}/${f} not installed")
  endif()
endforeach()

# A tiny DB: one host config (the README's), one sequence, the scored run only.
step("tune (one config into a fresh DB)"
     ${TUNE} --board host --db ${WORK_DIR}/d.db --sequences RubberWhale --variant kokkos_global
     --tunable tile_x=32 --tunable tile_y=4 --no-default-dimensions --param iterations=50
     --max-rounds 0)
step("tune export" ${TUNE} export --board host --db ${WORK_DIR}/d.db -o ${WORK_DIR}/tuned.h)

step("configure examples/deploy against the package"
     ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/deploy -B ${WORK_DIR}/example -G ${GENERATOR}
     -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
     -DCMAKE_PREFIX_PATH=${prefix} -DFLOWTUNE_TUNED_HEADER=${WORK_DIR}/tuned.h)
step("build examples/deploy" ${CMAKE_COMMAND} --build ${WORK_DIR}/example)
step("flow_tuned (the example)"
     ${WORK_DIR}/example/flow_tuned ${seq}/frame10.png ${seq}/frame11.png ${WORK_DIR}/example.flo
     --gt ${seq}/flow10.flo)
message(STATUS "  ${step_output}")
string(REGEX MATCH "aepe ([^ ]+) px" _ "${step_output}")
set(example_aepe "${CMAKE_MATCH_1}")
step("tune flow --tuned (the reference)"
     ${TUNE} flow --tuned ${WORK_DIR}/tuned.h ${seq}/frame10.png ${seq}/frame11.png
     -o ${WORK_DIR}/tune.flo --gt ${seq}/flow10.flo)
message(STATUS "  ${step_output}")
string(REGEX MATCH "aepe ([^ ]+) px" _ "${step_output}")
if(example_aepe STREQUAL "" OR NOT example_aepe STREQUAL CMAKE_MATCH_1)
  message(FATAL_ERROR "deploy_example: flow_tuned --gt printed aepe '${example_aepe}', "
                      "tune flow --gt '${CMAKE_MATCH_1}'")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/example.flo
                        ${WORK_DIR}/tune.flo RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "deploy_example: ${WORK_DIR}/example.flo differs from ${WORK_DIR}/tune.flo")
endif()

# Every host variant the package runs (flowtune::kHostVariants) deploys with the CPU build of
# the example: a simd_fused header too, bitwise as `tune flow --tuned`.
step("tune (one simd_fused config into a fresh DB)"
     ${TUNE} --board host --db ${WORK_DIR}/simd.db --sequences RubberWhale --variant simd_fused
     --precision f32 --tunable threads=1 --tunable band_rows=16 --tunable temporal_depth=1
     --tunable tile_cols=0 --no-default-dimensions --param iterations=50 --max-rounds 0)
step("tune export (simd_fused)"
     ${TUNE} export --board host --db ${WORK_DIR}/simd.db -o ${WORK_DIR}/tuned_simd.h)
step("configure examples/deploy with the simd_fused header"
     ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/deploy -B ${WORK_DIR}/example_simd -G ${GENERATOR}
     -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
     -DCMAKE_PREFIX_PATH=${prefix} -DFLOWTUNE_TUNED_HEADER=${WORK_DIR}/tuned_simd.h)
step("build examples/deploy (simd_fused)" ${CMAKE_COMMAND} --build ${WORK_DIR}/example_simd)
step("flow_tuned (simd_fused)"
     ${WORK_DIR}/example_simd/flow_tuned ${seq}/frame10.png ${seq}/frame11.png
     ${WORK_DIR}/example_simd.flo)
step("tune flow --tuned (simd_fused, the reference)"
     ${TUNE} flow --tuned ${WORK_DIR}/tuned_simd.h ${seq}/frame10.png ${seq}/frame11.png
     -o ${WORK_DIR}/tune_simd.flo)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/example_simd.flo
                        ${WORK_DIR}/tune_simd.flo RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "deploy_example: ${WORK_DIR}/example_simd.flo differs from "
                      "${WORK_DIR}/tune_simd.flo")
endif()

# The CUDA option of the example: flow_tuned built with a GPU board's header (the recorded
# H200 space), its kernel also compiled by nvcc. It runs the CUDA variant through the package;
# without a GPU (as on the build host) it must fail with the package's "no GPU" error.
if(CUDA_COMPILER AND XZ)
  execute_process(COMMAND ${XZ} -dc ${SOURCE_DIR}/tests/tuner/fixtures/h200_kernels.db.xz
                  OUTPUT_FILE ${WORK_DIR}/h200.db RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "deploy_example: xz -dc h200_kernels.db.xz failed (${rc})")
  endif()
  step("tune export --board h200 (recorded space)"
       ${TUNE} export --board h200 --db ${WORK_DIR}/h200.db -o ${WORK_DIR}/tuned_h200.h)
  step("configure examples/deploy with FLOWTUNE_DEPLOY_CUDA"
       ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/deploy -B ${WORK_DIR}/example
       -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER} -DFLOWTUNE_DEPLOY_CUDA=ON
       -DFLOWTUNE_TUNED_HEADER=${WORK_DIR}/tuned_h200.h)
  step("build flow_tuned for the GPU header and its kernel (sm_90)"
       ${CMAKE_COMMAND} --build ${WORK_DIR}/example)
  if(NOT EXISTS ${WORK_DIR}/example/CMakeFiles/tuned_cuda_kernel.dir)
    message(FATAL_ERROR "deploy_example: the CUDA option did not compile the tuned kernel")
  endif()
  execute_process(COMMAND ${WORK_DIR}/example/flow_tuned ${seq}/frame10.png ${seq}/frame11.png
                          ${WORK_DIR}/example_gpu.flo --gt ${seq}/flow10.flo
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(STATUS "deploy_example: flow_tuned ran the H200 header on the GPU:\n${out}")
  elseif(NOT out MATCHES "runs on a CUDA GPU and none is usable")
    message(FATAL_ERROR "deploy_example: flow_tuned with the H200 header failed (${rc}) "
                        "without the package's no-GPU error:\n${out}")
  else()
    message(STATUS "deploy_example: no GPU here, flow_tuned says so: ${out}")
  endif()
else()
  message(STATUS "deploy_example: no nvcc or xz, the CUDA option of the example is not built")
endif()

file(SIZE ${WORK_DIR}/example.flo size)
message(STATUS "deploy_example: the example's flow is bitwise the one of tune flow --tuned "
               "(${size} bytes)")
file(REMOVE_RECURSE ${WORK_DIR})
