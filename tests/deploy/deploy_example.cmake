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
     ${WORK_DIR}/example/flow_tuned ${seq}/frame10.png ${seq}/frame11.png ${WORK_DIR}/example.flo)
message(STATUS "  ${step_output}")
step("tune flow --tuned (the reference)"
     ${TUNE} flow --tuned ${WORK_DIR}/tuned.h ${seq}/frame10.png ${seq}/frame11.png
     -o ${WORK_DIR}/tune.flo)
message(STATUS "  ${step_output}")

execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/example.flo
                        ${WORK_DIR}/tune.flo RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "deploy_example: ${WORK_DIR}/example.flo differs from ${WORK_DIR}/tune.flo")
endif()

# The CUDA option of the example: the kernel of a GPU board's header, compiled by nvcc.
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
       -DFLOWTUNE_TUNED_CUDA_HEADER=${WORK_DIR}/tuned_h200.h)
  step("build the tuned CUDA kernel (sm_90)" ${CMAKE_COMMAND} --build ${WORK_DIR}/example)
else()
  message(STATUS "deploy_example: no nvcc or xz, the CUDA option of the example is not built")
endif()

file(SIZE ${WORK_DIR}/example.flo size)
message(STATUS "deploy_example: the example's flow is bitwise the one of tune flow --tuned "
               "(${size} bytes)")
file(REMOVE_RECURSE ${WORK_DIR})
