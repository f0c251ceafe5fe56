#pragma once

#include "common/LoadError.h"
#include "kernels/harness/Comparison.h"
#include "kernels/harness/KernelOps.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

namespace sf {

/// One shape a kernel task is tested on, e.g. "flux-hidden" {rows 4608, hidden 3072}.
struct KernelShape
{
    QString name;
    QString note;
    std::vector<int64_t> dims; ///< in the order of the operation's dims
};

/**
 * A CUDA kernel task (resources/kernels/<id>/task.json or a project's kernels/<id>/task.json): what the
 * student must write, the C entry point it must export, dtypes, shapes, tolerances and the baseline.
 * The float64 reference and input distributions come from the operation the task names ("op"),
 * implemented once in kernels/harness so that the runner and Skillforge agree on them.
 */
struct KernelTask
{
    QString id;
    QString title;
    QString description;
    QString entry;        ///< the entry point is entry + "_" + dtype, e.g. rmsnorm_bf16
    QString folder;       ///< the task's folder (may be a resource path, ":/kernels/rmsnorm")
    QString taskFile;     ///< folder + "/task.json"
    QString baselineFile; ///< the plain, correct CUDA implementation the speedup is measured against
    bool bundled = false;
    const kernels::OpDef *op = nullptr;
    std::vector<double> scalars; ///< in the operation's scalar order
    QList<kernels::DType> dtypes;
    std::map<kernels::DType, kernels::Tolerance> tolerances;
    QList<KernelShape> shapes;

    bool supports(kernels::DType dtype) const { return dtypes.contains(dtype); }
    QString entryPoint(kernels::DType dtype) const;
    QString signature(kernels::DType dtype) const;
    /// What the student is told: description, signature, shapes and tolerance.
    QString prompt(kernels::DType dtype) const;
    double bytes(const KernelShape &shape, kernels::DType dtype) const;
    double flops(const KernelShape &shape) const;
};

/// Reads and checks kernel task files.
class KernelTaskLoader final
{
public:
    /// Parses @p taskFile; errors name the file and line.
    static std::optional<KernelTask> load(const QString &taskFile, LoadError *error);

    /**
     * Runs the null candidates (writes nothing, zeros, copy of the input, constants, another
     * input's output) through the task's comparison rule on every shape (outer sizes shrunk) and
     * dtype. Returns one line per null candidate that passes: a non-empty list means the task
     * cannot tell a kernel that does nothing from a correct one.
     */
    static QStringList nullCandidateProblems(const KernelTask &task);

    /// The folder of the bundled tasks (a Qt resource path).
    static QString bundledFolder();
    /// Bundled tasks, then those in @p projectKernelsFolder (a project's kernels/; may be empty),
    /// which replace bundled tasks of the same id. Tasks that fail to load are reported in @p errors.
    static QList<KernelTask> loadAll(const QString &projectKernelsFolder, QList<LoadError> *errors);
    static std::optional<KernelTask> find(const QString &id, const QString &projectKernelsFolder, LoadError *error);
};

} // namespace sf
