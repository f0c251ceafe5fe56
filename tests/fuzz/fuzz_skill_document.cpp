// libFuzzer target for the SKILL.md front-matter parser (clang only):
//   cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ && cmake --build build/fuzz --target
//   fuzz_skill_document build/fuzz/tests/fuzz/fuzz_skill_document -dict=tests/fuzz/skill_document.dict
//   tests/fuzz/corpus/skill_document
// New inputs that find something go into corpus/skill_document/, where the g++ replay test runs them too.
#include "FuzzSkillDocument.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return sf::fuzz::fuzzSkillDocument(data, size);
}
