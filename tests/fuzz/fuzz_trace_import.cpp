// libFuzzer targets for the trace importers (clang only), one per format, built from this file with
// SKILLFORGE_FUZZ_TRACE_FORMAT set:
//   cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ && cmake --build build/fuzz --target
//   fuzz_trace_codex && build/fuzz/tests/fuzz/fuzz_trace_codex tests/fuzz/corpus/trace/codex
// Inputs that find something go into corpus/trace/<format>/, where the g++ replay test runs them too.
#include "FuzzTraceImport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return sf::fuzz::fuzzTraceImport(QStringLiteral(SKILLFORGE_FUZZ_TRACE_FORMAT), data, size);
}
