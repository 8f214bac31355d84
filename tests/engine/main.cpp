// The doctest runner for every engine test (tests/engine/test_*.cpp), native and WASM alike.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
