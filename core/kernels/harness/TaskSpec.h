#pragma once
// The part of a task.json the kernel runner needs (operation, entry point, scalars, tolerances,
// shapes), read with a small JSON reader so the runner builds with only CUDA and a C++ compiler.
// skillforge_core validates task files fully (KernelTaskLoader) before it starts the runner.

#include "Comparison.h"
#include "KernelOps.h"

#include <map>
#include <string>
#include <vector>

namespace sf::kernels {

struct TaskShape
{
    std::string name;
    std::vector<int64_t> dims;
};

struct TaskSpec
{
    std::string id;
    std::string entry;
    const OpDef *op = nullptr;
    std::vector<double> scalars;
    std::map<std::string, Tolerance> tolerances; ///< by dtype name
    std::vector<TaskShape> shapes;
};

/// Parses task.json text; on failure returns false with @p error set.
bool parseTaskSpec(const std::string &json, TaskSpec *spec, std::string *error);

} // namespace sf::kernels
