#include "kernels/KernelTask.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace sf {

using namespace kernels;

namespace {

// Null candidates are judged on cases of at most this many elements per buffer: large enough for
// many rows of every real width, small enough to check all tasks in well under a second.
constexpr int64_t NullCheckElements = 1 << 16;

// The line of the n-th (0-based) occurrence of "key": in a file that parsed, good enough to point
// at the offending field.
int lineOfKey(const QByteArray &text, const char *key, int occurrence = 0)
{
    const QByteArray needle = QByteArray("\"") + key + "\"";
    qsizetype at = -1;
    for (int i = 0; i <= occurrence; ++i) {
        at = text.indexOf(needle, at + 1);
        if (at < 0)
            return 0;
    }
    int line = 0, column = 0;
    lineAndColumnAt(text, at, &line, &column);
    return line;
}

} // namespace

QString KernelTask::entryPoint(DType dtype) const
{
    return entry + u'_' + QString::fromLatin1(dtypeName(dtype));
}

QString KernelTask::signature(DType dtype) const
{
    return QString::fromStdString(op->signature(entry.toStdString(), dtype));
}

double KernelTask::bytes(const KernelShape &shape, DType dtype) const { return op->bytes(shape.dims, dtype); }
double KernelTask::flops(const KernelShape &shape) const { return op->flops(shape.dims); }

QString KernelTask::prompt(DType dtype) const
{
    QStringList shapeLines;
    for (const KernelShape &shape : shapes) {
        QStringList dims;
        for (size_t i = 0; i < shape.dims.size(); ++i)
            dims << QStringLiteral("%1=%2").arg(QString::fromStdString(op->dims[i])).arg(shape.dims[i]);
        shapeLines << QStringLiteral("  %1: %2").arg(shape.name, dims.join(u' '));
    }
    const Tolerance tol = tolerances.at(dtype);
    return QStringLiteral("%1\n\nExport exactly this C entry point (raw device pointers; launch on the given stream; "
                          "return 0 or a cudaError_t value; do not allocate, synchronize, create streams or threads):\n\n"
                          "%2;\n\nIt is checked against a float64 reference on these shapes:\n%3\nwith "
                          "|out - ref| <= %4 + %5 * |ref| per element. It is compiled with nvcc only (no PyTorch).")
        .arg(description, signature(dtype), shapeLines.join(u'\n'))
        .arg(tol.atol)
        .arg(tol.rtol);
}

std::optional<KernelTask> KernelTaskLoader::load(const QString &taskFile, LoadError *error)
{
    *error = LoadError{taskFile, 0, 0, {}};
    QFile file(taskFile);
    if (!file.open(QIODevice::ReadOnly)) {
        error->message = QStringLiteral("cannot read: %1").arg(file.errorString());
        return std::nullopt;
    }
    const QByteArray text = file.readAll();
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        lineAndColumnAt(text, parseError.offset, &error->line, &error->column);
        error->message = QStringLiteral("not valid JSON: %1").arg(parseError.errorString());
        return std::nullopt;
    }
    if (!document.isObject()) {
        error->line = 1;
        error->message = QStringLiteral("a kernel task must be a JSON object");
        return std::nullopt;
    }
    const QJsonObject root = document.object();
    auto fail = [&](const char *key, const QString &message, int occurrence = 0) {
        // A missing key is reported at the start of the object it belongs in.
        error->line = std::max(1, lineOfKey(text, key, occurrence));
        error->message = message;
        return std::nullopt;
    };

    KernelTask task;
    task.taskFile = taskFile;
    task.folder = QFileInfo(taskFile).path();
    task.bundled = taskFile.startsWith(u':');
    for (const char *key : {"id", "title", "description", "op", "entry"}) {
        if (!root.value(QLatin1String(key)).isString() || root.value(QLatin1String(key)).toString().trimmed().isEmpty())
            return fail(key, QStringLiteral("\"%1\" must be a non-empty string").arg(QLatin1String(key)));
    }
    task.id = root.value(u"id").toString();
    task.title = root.value(u"title").toString();
    task.description = root.value(u"description").toString();
    task.entry = root.value(u"entry").toString();
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!identifier.match(task.entry).hasMatch())
        return fail("entry", QStringLiteral("\"entry\" must be a C identifier, not \"%1\"").arg(task.entry));
    task.op = findOp(root.value(u"op").toString().toStdString());
    if (!task.op) {
        QStringList known;
        for (const OpDef &op : allOps())
            known << QString::fromStdString(op.name);
        return fail("op", QStringLiteral("unknown operation \"%1\"; the reference operations are: %2")
                              .arg(root.value(u"op").toString(), known.join(QStringLiteral(", "))));
    }
    const OpDef &op = *task.op;

    // Scalars: defaults from the operation, overridden by name.
    task.scalars = op.defaultScalars;
    const QJsonObject scalars = root.value(u"scalars").toObject();
    for (auto it = scalars.begin(); it != scalars.end(); ++it) {
        const auto found = std::find(op.scalars.begin(), op.scalars.end(), it.key().toStdString());
        if (found == op.scalars.end() || !it.value().isDouble())
            return fail(it.key().toUtf8().constData(),
                        QStringLiteral("\"%1\" is not a numeric parameter of %2").arg(it.key(), QString::fromStdString(op.name)));
        task.scalars[size_t(found - op.scalars.begin())] = it.value().toDouble();
    }

    const QJsonArray dtypes = root.value(u"dtypes").toArray();
    if (dtypes.isEmpty())
        return fail("dtypes", QStringLiteral("\"dtypes\" must list at least one of bf16, fp16, fp32"));
    const QJsonObject tolerances = root.value(u"tolerances").toObject();
    for (const QJsonValue &value : dtypes) {
        DType dtype;
        if (!parseDType(value.toString().toStdString(), &dtype))
            return fail("dtypes", QStringLiteral("unknown dtype \"%1\" (bf16, fp16 or fp32)").arg(value.toString()));
        const QJsonObject tol = tolerances.value(value.toString()).toObject();
        if (!tol.value(u"atol").isDouble() || !tol.value(u"rtol").isDouble() || tol.value(u"atol").toDouble() < 0
            || tol.value(u"rtol").toDouble() < 0)
            return fail("tolerances", QStringLiteral("\"tolerances\" needs non-negative atol and rtol for %1").arg(value.toString()));
        task.dtypes << dtype;
        task.tolerances[dtype] = Tolerance{tol.value(u"atol").toDouble(), tol.value(u"rtol").toDouble()};
    }

    if (!root.value(u"baseline").isString())
        return fail("baseline", QStringLiteral("\"baseline\" must name the baseline .cu file"));
    task.baselineFile = task.folder + u'/' + root.value(u"baseline").toString();
    if (!QFileInfo::exists(task.baselineFile))
        return fail("baseline", QStringLiteral("the baseline %1 does not exist").arg(task.baselineFile));

    const QJsonArray shapes = root.value(u"shapes").toArray();
    if (shapes.isEmpty())
        return fail("shapes", QStringLiteral("\"shapes\" must list at least one shape"));
    int index = 0;
    for (const QJsonValue &value : shapes) {
        const QJsonObject object = value.toObject();
        KernelShape shape;
        shape.name = object.value(u"name").toString();
        shape.note = object.value(u"note").toString();
        if (shape.name.isEmpty())
            return fail("dims", QStringLiteral("shape %1 has no name").arg(index + 1), index);
        const QJsonObject dims = object.value(u"dims").toObject();
        for (const std::string &dim : op.dims) {
            const QJsonValue v = dims.value(QString::fromStdString(dim));
            if (!v.isDouble() || v.toDouble() != double(qint64(v.toDouble())))
                return fail("dims", QStringLiteral("shape \"%1\" needs an integer \"%2\"").arg(shape.name, QString::fromStdString(dim)), index);
            shape.dims.push_back(qint64(v.toDouble()));
        }
        if (dims.size() != qsizetype(op.dims.size()))
            return fail("dims", QStringLiteral("shape \"%1\" has sizes %2 does not take").arg(shape.name, QString::fromStdString(op.name)), index);
        if (const std::string problem = op.checkDims(shape.dims); !problem.empty())
            return fail("dims", QStringLiteral("shape \"%1\": %2").arg(shape.name, QString::fromStdString(problem)), index);
        task.shapes << shape;
        ++index;
    }
    return task;
}

QStringList KernelTaskLoader::nullCandidateProblems(const KernelTask &task)
{
    QStringList problems;
    for (const KernelShape &shape : task.shapes) {
        const std::vector<int64_t> dims = shrinkForCheck(*task.op, shape.dims, NullCheckElements);
        for (DType dtype : task.dtypes) {
            for (NullCandidate candidate :
                 nullCandidatesThatPass(*task.op, dims, task.scalars, dtype, task.tolerances.at(dtype), 1)) {
                problems << QStringLiteral("%1: the null candidate \"%2\" passes shape %3 in %4, so the check cannot "
                                           "tell it from a correct kernel")
                                .arg(task.taskFile, QLatin1String(nullCandidateName(candidate)), shape.name,
                                     QLatin1String(dtypeName(dtype)));
            }
        }
    }
    return problems;
}

QString KernelTaskLoader::bundledFolder() { return QStringLiteral(":/kernels"); }

QList<KernelTask> KernelTaskLoader::loadAll(const QString &projectKernelsFolder, QList<LoadError> *errors)
{
    QList<KernelTask> tasks;
    auto scan = [&](const QString &folder) {
        const QDir dir(folder);
        for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QString file = dir.filePath(name) + QStringLiteral("/task.json");
            if (!QFileInfo::exists(file))
                continue;
            LoadError error;
            std::optional<KernelTask> task = load(file, &error);
            if (!task) {
                errors->append(error);
                continue;
            }
            const auto same = std::find_if(tasks.begin(), tasks.end(), [&](const KernelTask &t) { return t.id == task->id; });
            if (same != tasks.end())
                *same = *task;
            else
                tasks << *task;
        }
    };
    scan(bundledFolder());
    if (!projectKernelsFolder.isEmpty())
        scan(projectKernelsFolder);
    return tasks;
}

std::optional<KernelTask> KernelTaskLoader::find(const QString &id, const QString &projectKernelsFolder, LoadError *error)
{
    QList<LoadError> errors;
    const QList<KernelTask> tasks = loadAll(projectKernelsFolder, &errors);
    for (const KernelTask &task : tasks) {
        if (task.id == id)
            return task;
    }
    for (const LoadError &e : errors) {
        if (QFileInfo(e.file).dir().dirName() == id) {
            *error = e;
            return std::nullopt;
        }
    }
    QStringList known;
    for (const KernelTask &task : tasks)
        known << task.id;
    *error = LoadError{{}, 0, 0, QStringLiteral("no kernel task \"%1\"; known tasks: %2").arg(id, known.join(QStringLiteral(", ")))};
    return std::nullopt;
}

} // namespace sf
