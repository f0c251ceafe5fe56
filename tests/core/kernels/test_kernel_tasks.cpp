#include "SkippedChecks.h"
#include "kernels/KernelTask.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace sf;
using namespace sf::kernels;
using namespace Qt::StringLiterals;

namespace {

QString writeTask(const QTemporaryDir &dir, const QString &id, const QByteArray &json, bool withBaseline = true)
{
    QDir(dir.path()).mkpath(id);
    const QString path = dir.filePath(id + QStringLiteral("/task.json"));
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(json);
    if (withBaseline) {
        QFile baseline(dir.filePath(id + QStringLiteral("/baseline.cu")));
        baseline.open(QIODevice::WriteOnly);
        baseline.write("// baseline\n");
    }
    return path;
}

const QByteArray ValidTask = R"({
  "id": "my-norm",
  "title": "My norm",
  "description": "An RMSNorm with a project-specific shape.",
  "op": "rmsnorm",
  "entry": "my_norm",
  "dtypes": ["bf16"],
  "scalars": {"eps": 1e-5},
  "tolerances": {"bf16": {"atol": 0.01, "rtol": 0.016}},
  "baseline": "baseline.cu",
  "shapes": [
    {"name": "wide", "dims": {"rows": 4, "hidden": 3001}},
    {"name": "narrow", "dims": {"rows": 9, "hidden": 64}}
  ]
})";

} // namespace

class TestKernelTasks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bundledTasks_allNineLoadWithEveryDtypeAndRealShapes()
    {
        QList<LoadError> errors;
        const QList<KernelTask> tasks = KernelTaskLoader::loadAll({}, &errors);
        for (const LoadError &e : errors)
            qWarning("%s", qPrintable(e.toString()));
        QVERIFY(errors.isEmpty());
        QStringList ids;
        for (const KernelTask &task : tasks)
            ids << task.id;
        ids.sort();
        QCOMPARE(ids, (QStringList{u"adaln"_s, u"geglu"_s, u"gelu_tanh"_s, u"layernorm"_s, u"rmsnorm"_s,
                                   u"rmsnorm_residual"_s, u"rope"_s, u"softmax"_s, u"swiglu"_s}));
        for (const KernelTask &task : tasks) {
            QVERIFY(task.bundled);
            QCOMPARE(task.dtypes.size(), 3);
            QVERIFY2(task.shapes.size() >= 4, qPrintable(task.id));
            QVERIFY(QFile::exists(task.baselineFile));
            // At least one shape is odd-sized (not a multiple of 8 in its innermost size).
            const bool hasOdd = std::any_of(task.shapes.begin(), task.shapes.end(),
                                            [](const KernelShape &s) { return s.dims.back() % 8 != 0; });
            QVERIFY2(hasOdd, qPrintable(task.id));
            for (const KernelShape &shape : task.shapes) {
                QVERIFY(task.bytes(shape, DType::BF16) > 0);
                QVERIFY(task.flops(shape) > 0);
            }
        }
    }

    void rmsnormTask_matchesTheSampleProjectAbi()
    {
        LoadError error;
        const auto task = KernelTaskLoader::find(u"rmsnorm"_s, {}, &error);
        QVERIFY2(task, qPrintable(error.toString()));
        QCOMPARE(task->entryPoint(DType::BF16), u"rmsnorm_bf16"_s);
        QCOMPARE(task->signature(DType::BF16),
                 u"extern \"C\" int rmsnorm_bf16(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* "
                 "weight, int64_t rows, int64_t hidden, float eps, cudaStream_t stream)"_s);
        // Flux hidden states: 4608 x 3072 bf16 in and out plus the weight.
        const KernelShape flux = task->shapes.first();
        QCOMPARE(flux.name, u"flux-hidden"_s);
        QCOMPARE(task->bytes(flux, DType::BF16), (2.0 * 4608 * 3072 + 3072) * 2);
        QVERIFY(task->prompt(DType::BF16).contains(u"rmsnorm_bf16("_s));
    }

    void ropeSignature_keepsTablesInFp32()
    {
        LoadError error;
        const auto task = KernelTaskLoader::find(u"rope"_s, {}, &error);
        QVERIFY(task);
        QVERIFY(task->signature(DType::F16).contains(u"const __half* x, const float* cos, const float* sin"_s));
    }

    void bundledTasks_rejectEveryNullCandidate()
    {
        QList<LoadError> errors;
        for (const KernelTask &task : KernelTaskLoader::loadAll({}, &errors)) {
            const QStringList problems = KernelTaskLoader::nullCandidateProblems(task);
            QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        }
    }

    // NaN and infinity match nothing (issue 17), so a bundled task's reference must be finite wherever the runner
    // draws inputs, or a correct kernel would fail: every shape (outer sizes shrunk), dtype and several seeds.
    void bundledTasks_referenceIsFiniteOnEveryShapeAndDtype()
    {
        QList<LoadError> errors;
        const QList<KernelTask> tasks = KernelTaskLoader::loadAll({}, &errors);
        QVERIFY(!tasks.isEmpty());
        for (const KernelTask &task : tasks) {
            for (const KernelShape &shape : task.shapes) {
                const std::vector<int64_t> dims = shrinkForCheck(*task.op, shape.dims, 1 << 16);
                for (DType dtype : task.dtypes) {
                    for (uint64_t seed : {1ull, 0x9e3779b97f4a7c15ull, 0xfffffffffffffffull}) {
                        const std::vector<BufferSpec> specs = task.op->buffers(dims);
                        const std::vector<Values> values = makeCase(*task.op, dims, task.scalars, dtype, seed);
                        for (size_t b = 0; b < specs.size(); ++b) {
                            const bool finite = std::all_of(values[b].begin(), values[b].end(),
                                                            [](double v) { return std::isfinite(v); });
                            QVERIFY2(finite, qPrintable(QStringLiteral("%1, shape %2, %3: buffer %4 is not finite")
                                                            .arg(task.id, shape.name, QLatin1String(dtypeName(dtype)),
                                                                 QString::fromStdString(specs[b].name))));
                        }
                    }
                }
            }
        }
    }

    void nullCandidateCheck_reportsATaskWhoseToleranceLetsZerosPass()
    {
        // A relative tolerance of 100% accepts zeros for every reference value.
        QTemporaryDir dir;
        QByteArray json = R"({"id": "loose-softmax", "title": "t", "description": "d", "op": "softmax",
          "entry": "loose_softmax", "dtypes": ["bf16"], "tolerances": {"bf16": {"atol": 0.0, "rtol": 1.0}},
          "baseline": "baseline.cu", "shapes": [{"name": "vocab", "dims": {"rows": 4, "cols": 151936}}]})";
        LoadError error;
        const auto task = KernelTaskLoader::load(writeTask(dir, u"loose-softmax"_s, json), &error);
        QVERIFY2(task, qPrintable(error.toString()));
        const QStringList problems = KernelTaskLoader::nullCandidateProblems(*task);
        QVERIFY(!problems.isEmpty());
        QVERIFY2(problems.join(u'\n').contains(u"\"zeros\" passes shape vocab in bf16"_s), qPrintable(problems.join(u'\n')));
    }

    void nullCandidateCheck_reportsAnIdentityTaskOnNonNegativeInputs()
    {
        // The comparison rule itself: a copy of the input equals the reference of an identity.
        std::vector<double> ref = {0.5, 1.0, 2.0};
        const Comparison same = compareValues(ref.data(), ref.data(), 3, {0.0, 0.0});
        QVERIFY(same.passed);
        std::vector<double> off = {0.5, 1.0, 2.1};
        const Comparison c = compareValues(off.data(), ref.data(), 3, {0.01, 0.01});
        QVERIFY(!c.passed);
        QCOMPARE(c.firstMismatch, 2);
        QCOMPARE(c.mismatches, 1);
        QVERIFY(std::abs(c.maxAbsError - 0.1) < 1e-12);
    }

    // Issue 17, "NaN as a wildcard": NaN and infinity match nothing, so a kernel that leaves the harness's NaN
    // fill in place fails wherever the reference is NaN by chance, and an infinity is no answer either.
    void comparison_nanAndInfinityMatchNothing()
    {
        const double nan = std::nan("");
        const double inf = INFINITY;
        std::vector<double> ref = {nan, inf, -inf, 1.0};
        std::vector<double> same = {nan, inf, -inf, 1.0};
        const Comparison parity = compareValues(same.data(), ref.data(), 4, {1e9, 1e9});
        QVERIFY(!parity.passed);
        QCOMPARE(parity.mismatches, 3);
        QCOMPARE(parity.nonFiniteReference, 3);
        QCOMPARE(parity.firstMismatch, 0);
        std::vector<double> finite = {0.0, 0.0, 0.0, 1.0};
        QVERIFY(!compareValues(finite.data(), ref.data(), 4, {1e9, 1e9}).passed); // such inputs judge nothing
        std::vector<double> finiteRef = {1.0, 2.0};
        for (const double bad : {nan, inf, -inf}) {
            std::vector<double> out = {1.0, bad};
            const Comparison c = compareValues(out.data(), finiteRef.data(), 2, {1e9, 1e9});
            QVERIFY(!c.passed);
            QCOMPARE(c.nonFiniteMismatches, 1);
            QCOMPARE(c.nonFiniteReference, 0);
        }
        std::vector<double> allNan = {nan, nan};
        QCOMPARE(compareValues(allNan.data(), finiteRef.data(), 2, {1e9, 1e9}).mismatches, 2);
        QVERIFY(compareValues(finiteRef.data(), finiteRef.data(), 2, {0.0, 0.0}).passed);
    }

    void comparison_reportsRelativeL2Error()
    {
        std::vector<double> ref = {3.0, 4.0};
        std::vector<double> out = {3.0, 4.5};
        const Comparison c = compareValues(out.data(), ref.data(), 2, {1.0, 0.0});
        QVERIFY(c.passed);
        QVERIFY(std::abs(c.relL2Error - 0.1) < 1e-12);
        QVERIFY(std::abs(c.maxRelError - 0.125) < 1e-12);
    }

    void halfConversions_roundToNearestEven()
    {
        QCOMPARE(bf16ToFloat(floatToBf16(1.0f)), 1.0f);
        // 1 + 2^-8 is halfway between bf16 neighbours 1 and 1 + 2^-7: ties to even (1).
        QCOMPARE(bf16ToFloat(floatToBf16(1.0f + 1.0f / 256)), 1.0f);
        QCOMPARE(bf16ToFloat(floatToBf16(1.0f + 3.0f / 256)), 1.0f + 4.0f / 256);
        QCOMPARE(f16ToFloat(floatToF16(65504.0f)), 65504.0f);
        QVERIFY(std::isinf(f16ToFloat(floatToF16(65520.0f))));
        QCOMPARE(f16ToFloat(floatToF16(1.0f + 1.0f / 2048)), 1.0f); // tie to even
        QCOMPARE(f16ToFloat(floatToF16(5.96046448e-8f)), 5.96046448e-8f); // smallest subnormal
        QCOMPARE(f16ToFloat(floatToF16(-2.5f)), -2.5f);
        QVERIFY(std::isnan(f16ToFloat(floatToF16(std::nanf("")))));
        QCOMPARE(roundTo(DType::F16, 0.1), double(f16ToFloat(floatToF16(0.1f))));
    }

    void inputs_areSignedMixedAndDifferPerSeed()
    {
        const OpDef *op = findOp("rmsnorm");
        QVERIFY(op);
        const std::vector<int64_t> dims = {64, 256};
        const auto a = makeCase(*op, dims, {1e-6}, DType::BF16, 1);
        const auto b = makeCase(*op, dims, {1e-6}, DType::BF16, 2);
        QVERIFY(a[1] != b[1]);
        QCOMPARE(makeCase(*op, dims, {1e-6}, DType::BF16, 1)[1], a[1]); // reproducible
        const bool hasNegative = std::any_of(a[1].begin(), a[1].end(), [](double v) { return v < 0; });
        QVERIFY(hasNegative);
        // Rows differ in magnitude by more than 10x somewhere.
        double smallest = 1e300, largest = 0;
        for (int64_t r = 0; r < dims[0]; ++r) {
            double ss = 0;
            for (int64_t i = 0; i < dims[1]; ++i)
                ss += a[1][size_t(r * dims[1] + i)] * a[1][size_t(r * dims[1] + i)];
            smallest = std::min(smallest, ss);
            largest = std::max(largest, ss);
        }
        QVERIFY(largest / smallest > 100.0);
        // Every value is representable in bf16.
        for (double v : a[1])
            QCOMPARE(roundTo(DType::BF16, v), v);
    }

    void shrinkForCheck_keepsTheInnermostSize()
    {
        const OpDef *op = findOp("rope");
        const std::vector<int64_t> small = shrinkForCheck(*op, {4608, 24, 128}, 1 << 16);
        QCOMPARE(small.back(), 128);
        QVERIFY(small[0] * small[1] * small[2] <= (1 << 16));
        const std::vector<int64_t> gelu = shrinkForCheck(*findOp("gelu_tanh"), {56623104}, 1 << 16);
        QVERIFY(gelu[0] <= (1 << 16));
    }

    void load_reportsFileAndLineOfEachProblem_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown op") << QByteArray(R"("op": "rmsnorm")") << QByteArray(R"("op": "fft")") << 5
                                    << u"unknown operation \"fft\""_s;
        QTest::newRow("entry not an identifier") << QByteArray(R"("entry": "my_norm")") << QByteArray(R"("entry": "my norm")")
                                                 << 6 << u"must be a C identifier"_s;
        QTest::newRow("unknown dtype") << QByteArray(R"(["bf16"])") << QByteArray(R"(["bf8"])") << 7
                                       << u"unknown dtype \"bf8\""_s;
        QTest::newRow("missing dim") << QByteArray(R"("hidden": 64)") << QByteArray(R"("cols": 64)") << 13
                                     << u"shape \"narrow\" needs an integer \"hidden\""_s;
        QTest::newRow("unknown scalar") << QByteArray(R"("eps")") << QByteArray(R"("epsilon")") << 8
                                        << u"\"epsilon\" is not a numeric parameter of rmsnorm"_s;
        QTest::newRow("missing tolerance") << QByteArray(R"("bf16": {"atol")") << QByteArray(R"("fp16": {"atol")") << 9
                                           << u"needs non-negative atol and rtol for bf16"_s;
        QTest::newRow("syntax") << QByteArray(R"("title": "My norm",)") << QByteArray(R"("title": "My norm")") << 4
                                << u"not valid JSON"_s;
    }

    void load_reportsFileAndLineOfEachProblem()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(int, line);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QByteArray json = ValidTask;
        QVERIFY(json.contains(from));
        json.replace(from, to);
        const QString path = writeTask(dir, u"my-norm"_s, json);
        LoadError error;
        QVERIFY(!KernelTaskLoader::load(path, &error));
        QCOMPARE(error.file, path);
        QCOMPARE(error.line, line);
        QVERIFY2(error.message.contains(message), qPrintable(error.message));
    }

    void load_missingBaselineIsAnError()
    {
        QTemporaryDir dir;
        LoadError error;
        QVERIFY(!KernelTaskLoader::load(writeTask(dir, u"my-norm"_s, ValidTask, false), &error));
        QVERIFY(error.message.contains(u"baseline"_s));
    }

    void projectTasks_areListedAndReplaceBundledOnesOfTheSameId()
    {
        QTemporaryDir dir;
        writeTask(dir, u"my-norm"_s, ValidTask);
        QByteArray shadow = ValidTask;
        shadow.replace(R"("id": "my-norm")", R"("id": "rmsnorm")");
        writeTask(dir, u"rmsnorm"_s, shadow);
        writeTask(dir, u"broken"_s, "{ nope");
        QList<LoadError> errors;
        const QList<KernelTask> tasks = KernelTaskLoader::loadAll(dir.path(), &errors);
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors.first().file.endsWith(u"broken/task.json"_s));
        QCOMPARE(tasks.size(), 10);
        const auto rms = std::find_if(tasks.begin(), tasks.end(), [](const KernelTask &t) { return t.id == u"rmsnorm"_s; });
        QVERIFY(!rms->bundled);
        QCOMPARE(rms->entry, u"my_norm"_s);
        QCOMPARE(rms->scalars.front(), 1e-5);
        LoadError error;
        QVERIFY(!KernelTaskLoader::find(u"broken"_s, dir.path(), &error));
        QVERIFY(error.message.contains(u"not valid JSON"_s));
        QVERIFY(!KernelTaskLoader::find(u"nonexistent"_s, dir.path(), &error));
        QVERIFY(error.message.contains(u"known tasks"_s));
    }
};

SF_TEST_GUILESS_MAIN(TestKernelTasks)
#include "test_kernel_tasks.moc"
