# weft_add_test(NAME <name> SOURCES <files...> LIBS <targets...> LABELS <labels...>)
# Builds one Qt Test executable and registers it with CTest, headless (offscreen platform).
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
  # Qt Test aborts a test function after 300 s by default; the validation runs can take longer
  # on a loaded machine or under the asan preset, so the limit follows the CTest timeout.
  set_tests_properties(${T_NAME} PROPERTIES
    LABELS "${T_LABELS}"
    TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;WEFT_NO_AUTOSAVE_PROMPT=1;QTEST_FUNCTION_TIMEOUT=900000")
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
