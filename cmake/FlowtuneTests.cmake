# GoogleTest executables of tests/ and the ctest labels of their tests.
#
# Every test has exactly one of the labels
#   unit         fast (well under ~20 s), needs no GPU, starts no external process or server;
#   integration  runs `tune` or worker processes, a PostgreSQL server, the store under load,
#                nvcc, or takes more than ~20 s (a whole data set, an NVRTC compile sweep);
# and, where it applies,
#   gpu          needs a CUDA device (it skips cleanly without one);
#   slow         takes more than ~20 s on a 2-core machine: never unit. It also gets a high
#                COST, so that `ctest -j` starts it first even without the CTestCostData.txt
#                of an earlier run and the long tests do not end the run on one core.
# `ctest --preset ci -L unit` is the quick check (under 2 minutes on 2 cores); `-L gpu`,
# `-LE slow` select as usual.
#
# flowtune_add_gtest(<target> SOURCES <file>... LINK <library>...
#                    [INTEGRATION <regex>...] [GPU <regex>...] [SLOW <regex>...]
#                    [DEPENDS <target>...])
#   Builds the GoogleTest executable <target> from SOURCES, linked with LINK (the libraries of
#   the layer under test) and GTest::gtest_main, and registers its tests with
#   gtest_discover_tests. Each test is labelled by its full ctest name (Suite.Test, or
#   Instance/Suite.Test/Param for parameterised ones): integration when it matches one of the
#   INTEGRATION regexes (CMake regular expressions), unit otherwise; gpu when it matches one
#   of the GPU regexes; integration and slow when it matches one of the SLOW regexes (the
#   tests measured over ~20 s on the shared 2-core build machine). DEPENDS: executables the tests run (e.g. tune),
#   built before <target>. The test binaries see where the data and the source tree are
#   (FLOWTUNE_TEST_SHARED_DATA, FLOWTUNE_TEST_REPO_DATA, FLOWTUNE_TEST_SOURCE_DIR) and the
#   path of `tune` (FLOWTUNE_TUNE_EXE).
function(flowtune_add_gtest target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LINK;INTEGRATION;GPU;SLOW;DEPENDS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "flowtune_add_gtest(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    return()
  endif()
  add_executable(${target} ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE ${arg_LINK} GTest::gtest_main flowtune_warnings)
  # Several test files per compiler run (FLOWTUNE_TEST_UNITY_BATCH, top-level CMakeLists.txt).
  if(FLOWTUNE_TEST_UNITY_BATCH GREATER 0)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                                               UNITY_BUILD_BATCH_SIZE ${FLOWTUNE_TEST_UNITY_BATCH})
  else()
    set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
  endif()
  # After the build type's flags on the command line, so it is the one that counts.
  if(FLOWTUNE_TEST_OPTIMIZATION AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${FLOWTUNE_TEST_OPTIMIZATION}>)
  endif()
  target_compile_definitions(${target} PRIVATE
    FLOWTUNE_TEST_SHARED_DATA="${PROJECT_SOURCE_DIR}/../shared/data"
    FLOWTUNE_TEST_REPO_DATA="${PROJECT_SOURCE_DIR}/data"
    FLOWTUNE_TEST_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    FLOWTUNE_TUNE_EXE="$<TARGET_FILE:tune>")
  if(arg_DEPENDS)
    add_dependencies(${target} ${arg_DEPENDS})
  endif()
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 TEST_LIST ${target}_TESTS
                       PROPERTIES TIMEOUT 1500)

  # Labels per test, set after discovery: a ctest include file that runs after the one of
  # gtest_discover_tests (TEST_INCLUDE_FILES are read in order) and walks its test list.
  # The regexes see a parameterised test's name without the "  # GetParam() = <value>" that
  # gtest_discover_tests appends to it.
  string(CONCAT script "foreach(test IN LISTS ${target}_TESTS)\n"
             "  string(REGEX REPLACE \"  # GetParam.*\" \"\" t \"\${test}\")\n"
             "  set(labels unit)\n  set(cost 0)\n")
  foreach(re IN LISTS arg_INTEGRATION)
    string(APPEND script "  if(t MATCHES [==[${re}]==])\n    set(labels integration)\n  endif()\n")
  endforeach()
  foreach(re IN LISTS arg_GPU)
    string(APPEND script "  if(t MATCHES [==[${re}]==] AND NOT labels MATCHES gpu)\n"
                         "    list(APPEND labels gpu)\n  endif()\n")
  endforeach()
  foreach(re IN LISTS arg_SLOW)
    string(APPEND script "  if(t MATCHES [==[${re}]==] AND NOT labels MATCHES slow)\n"
                         "    list(REMOVE_ITEM labels unit integration)\n"
                         "    list(INSERT labels 0 integration)\n"
                         "    list(APPEND labels slow)\n    set(cost 1000)\n  endif()\n")
  endforeach()
  string(APPEND script "  set_tests_properties(\"\${test}\" PROPERTIES LABELS \"\${labels}\")\n"
                       "  if(cost)\n    set_tests_properties(\"\${test}\" PROPERTIES COST \${cost})\n"
                       "  endif()\nendforeach()\n")
  set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake)
  file(WRITE ${labels_file} "${script}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
endfunction()

# flowtune_label_unlabelled_tests(): gives the label unit to every test of this directory
# registered by add_test without LABELS (short scripts over committed files).
function(flowtune_label_unlabelled_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    get_test_property(${t} LABELS labels)
    if(NOT labels)
      set_tests_properties(${t} PROPERTIES LABELS unit)
    endif()
  endforeach()
endfunction()
