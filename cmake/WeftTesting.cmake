# weft_add_test(NAME <name> SOURCES <files...> LIBS <targets...> LABELS <labels...>)
# Builds one Qt Test executable and registers it with CTest, headless (offscreen platform).
set(WEFT_TEST_TIMEOUT_SCALE 1 CACHE STRING "Multiplier for every test's CTest timeout (asan preset: 8)")

function(weft_add_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  set_target_properties(${T_NAME} PROPERTIES AUTOMOC ON)
  target_link_libraries(${T_NAME} PRIVATE Qt6::Test ${T_LIBS})
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  target_compile_definitions(${T_NAME} PRIVATE
    WEFT_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
    WEFT_RESOURCES_DIR="${PROJECT_SOURCE_DIR}/resources"
    WEFT_BINARY_DIR="${PROJECT_BINARY_DIR}"
    WEFT_CLI="$<TARGET_FILE:weft-cli>")
  add_dependencies(${T_NAME} weft-cli)
  weft_qt_target(${T_NAME})
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  # Sanitizer and Debug builds run the simulator about ten times slower: the asan preset sets
  # WEFT_TEST_TIMEOUT_SCALE so the validation tests are not cut off by their Release-sized limit.
  math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${WEFT_TEST_TIMEOUT_SCALE}")
  # Qt Test aborts a test function after 300 s by default; the per-function limit follows the
  # CTest one so that CTest, not Qt Test, decides when a test has run too long.
  math(EXPR T_FUNCTION_MS "${T_TIMEOUT} * 1000")
  set_tests_properties(${T_NAME} PROPERTIES
    LABELS "${T_LABELS}"
    TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;WEFT_NO_AUTOSAVE_PROMPT=1;QTEST_FUNCTION_TIMEOUT=${T_FUNCTION_MS}")
endfunction()

# Registers every tests/<layer>/tst_*.cpp in the calling folder as one test, labelled <label>.
function(weft_add_tests_in_folder label)
  cmake_parse_arguments(F "" "" "LIBS" ${ARGN})
  file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tst_*.cpp)
  foreach(src ${tests})
    get_filename_component(name ${src} NAME_WE)
    weft_add_test(NAME ${label}_${name} SOURCES ${src} LIBS ${F_LIBS} LABELS ${label})
  endforeach()
endfunction()
