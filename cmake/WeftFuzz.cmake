# WEFT_FUZZ=ON: only weft_core and the libFuzzer targets of tests/fuzz, built with clang under
# AddressSanitizer and UndefinedBehaviorSanitizer (no Qt). Use a build directory of its own:
#   cmake -S . -B build-fuzz -DWEFT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++
#   cmake --build build-fuzz --target fuzz_readers
# scripts/dev.sh fuzz [SECONDS] does this and runs the target on the seed corpus.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "WEFT_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
endif()
find_package(nlohmann_json 3.10 REQUIRED)
# Every object carries the coverage instrumentation libFuzzer steers by; any UB report aborts.
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                    -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
add_subdirectory(src/core)
add_subdirectory(tests/fuzz)
