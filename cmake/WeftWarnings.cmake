# Warnings for every Weft target; WEFT_WERROR (on in CI) turns them into errors.
option(WEFT_WERROR "Treat warnings as errors" OFF)
function(weft_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(WEFT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Definitions every Qt-using Weft target carries (architecture.md, Style).
function(weft_qt_target target)
  target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII
                                               QT_NO_FOREACH QT_NO_URL_CAST_FROM_STRING)
  weft_set_warnings(${target})
endfunction()
