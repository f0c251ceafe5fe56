#include "kernels/KernelVerdictView.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>

namespace sf {

namespace {

QTableWidget *makeTable(const QStringList &headers, QWidget *parent)
{
    auto *table = new QTableWidget(0, int(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setTextElideMode(Qt::ElideMiddle);
    return table;
}

void setRow(QTableWidget *table, int row, const QStringList &cells)
{
    for (int column = 0; column < cells.size(); ++column) {
        auto *item = new QTableWidgetItem(cells[column]);
        item->setToolTip(cells[column]);
        if (column > 0)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, column, item);
    }
}

QString number(double v, int precision = 3) { return QString::number(v, 'g', precision); }

/// What the kernel achieved of the device's peak bandwidth and FP32 rate; "" from a runner that did not say.
QString ofPeak(const KernelTimingRow &t)
{
    if (t.fractionOfPeakBandwidth <= 0 && t.fractionOfPeakCompute <= 0)
        return {};
    return QStringLiteral("%1% bandwidth · %2% FP32")
        .arg(number(t.fractionOfPeakBandwidth * 100, 3), number(t.fractionOfPeakCompute * 100, 2));
}

} // namespace

KernelVerdictView::KernelVerdictView(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_source(new QPlainTextEdit(this))
    , m_diagnostics(new QListWidget(this))
    , m_resources(makeTable({tr("Kernel"), tr("Arch"), tr("Registers"), tr("Shared (B)"), tr("Stack (B)"),
                             tr("Spill stores (B)"), tr("Spill loads (B)")},
                            this))
    , m_correctness(makeTable({tr("Shape"), tr("Seed"), tr("Result"), tr("Max abs error"), tr("Max rel error"),
                               tr("Rel. L2 error"), tr("Mismatches"), tr("Why")},
                              this))
    , m_timing(makeTable({tr("Shape"), tr("Size"), tr("Candidate (µs)"), tr("95% interval"), tr("Baseline (µs)"),
                          tr("Speedup"), tr("GB/s"), tr("Speed of light"), tr("Of peak"), tr("Flags")},
                         this))
    , m_chart(new QChart)
{
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_source->setReadOnly(true);
    m_source->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_source->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_source->setAccessibleName(tr("Candidate source"));
    m_diagnostics->setAccessibleName(tr("Compiler messages"));
    connect(m_diagnostics, &QListWidget::currentRowChanged, this, [this](int row) {
        const int line = row >= 0 ? m_diagnostics->item(row)->data(Qt::UserRole).toInt() : 0;
        if (line <= 0)
            return;
        QTextCursor cursor(m_source->document()->findBlockByNumber(line - 1));
        m_source->setTextCursor(cursor);
        m_source->centerCursor();
    });

    auto *sourceSplit = new QSplitter(Qt::Vertical, this);
    sourceSplit->addWidget(m_source);
    sourceSplit->addWidget(m_diagnostics);
    sourceSplit->setStretchFactor(0, 3);

    m_chart->setTitle(tr("Speedup over the baseline and fraction of the speed-of-light bound"));
    auto *chartView = new QChartView(m_chart, this);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumHeight(150);
    auto *timingSplit = new QSplitter(Qt::Vertical, this);
    timingSplit->addWidget(m_timing);
    timingSplit->addWidget(chartView);

    m_tabs->addTab(sourceSplit, tr("Source"));
    m_tabs->addTab(m_resources, tr("Resources"));
    m_tabs->addTab(m_correctness, tr("Correctness"));
    m_tabs->addTab(timingSplit, tr("Timing"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_tabs, 1);
    clear();
}

QString KernelVerdictView::statusText() const { return m_status->text(); }

void KernelVerdictView::clear()
{
    m_status->setText(tr("No candidate checked yet."));
    m_source->clear();
    m_diagnostics->clear();
    m_diagnostics->setVisible(false);
    for (QTableWidget *table : {m_resources, m_correctness, m_timing})
        table->setRowCount(0);
    m_chart->removeAllSeries();
    for (QAbstractAxis *axis : m_chart->axes())
        m_chart->removeAxis(axis);
}

void KernelVerdictView::showCandidate(const QString &name, const QString &source)
{
    clear();
    m_status->setText(tr("%1 is not checked yet: Check builds it and runs it against the task's reference.")
                          .arg(name.toHtmlEscaped()));
    m_source->setPlainText(source);
    m_tabs->setCurrentIndex(0);
}

void KernelVerdictView::setVerdict(const KernelVerdict &verdict)
{
    clear();
    QString color = QStringLiteral("#b00020");
    if (verdict.passed())
        color = QStringLiteral("#1b7f3a");
    else if (verdict.notRun())
        color = QStringLiteral("#8a6d00");
    m_status->setText(QStringLiteral("<b style='color:%1'>%2</b> — %3")
                          .arg(color, verdict.statusText().toHtmlEscaped(), verdict.reason.toHtmlEscaped()));
    m_status->setToolTip(verdict.evidence());
    showSource(verdict);
    showResources(verdict);
    showCorrectness(verdict);
    showTiming(verdict);
    // Open where the story is: the errors, the failing cases, or the timing.
    if (!verdict.build.ok && !verdict.build.diagnostics.isEmpty())
        m_tabs->setCurrentIndex(0);
    else if (!verdict.timing.isEmpty() && verdict.passed())
        m_tabs->setCurrentIndex(3);
    else if (!verdict.correctness.isEmpty())
        m_tabs->setCurrentIndex(2);
    else
        m_tabs->setCurrentIndex(1);
}

void KernelVerdictView::showSource(const KernelVerdict &verdict)
{
    m_source->setPlainText(verdict.source);
    QList<QTextEdit::ExtraSelection> marks;
    for (const CompilerDiagnostic &d : verdict.build.diagnostics) {
        const QString where = d.line > 0 ? QStringLiteral("%1:%2").arg(d.file).arg(d.line) : d.file;
        auto *item = new QListWidgetItem(QStringLiteral("%1: %2: %3").arg(where, d.severity, d.message), m_diagnostics);
        item->setData(Qt::UserRole, d.file == verdict.candidateName ? d.line : 0);
        if (d.file != verdict.candidateName || d.line <= 0)
            continue;
        const QTextBlock block = m_source->document()->findBlockByNumber(d.line - 1);
        if (!block.isValid())
            continue;
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(block);
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.format.setBackground(d.severity == u"error" ? QColor(255, 205, 210) : QColor(255, 243, 196));
        mark.format.setToolTip(d.message);
        marks << mark;
    }
    for (const SymbolRejection &r : verdict.build.rejectedSymbols)
        new QListWidgetItem(tr("rejected import %1: %2").arg(r.symbol, r.reason), m_diagnostics);
    m_source->setExtraSelections(marks);
    m_diagnostics->setVisible(m_diagnostics->count() > 0);
}

void KernelVerdictView::showResources(const KernelVerdict &verdict)
{
    m_resources->setRowCount(int(verdict.build.resources.size()));
    int row = 0;
    for (const KernelResources &k : verdict.build.resources) {
        setRow(m_resources, row++,
               {k.function, k.arch, QString::number(k.registers), QString::number(k.sharedBytes),
                QString::number(k.stackBytes), QString::number(k.spillStoreBytes), QString::number(k.spillLoadBytes)});
    }
    m_resources->resizeColumnsToContents();
    // Kernel names can be long (templates, mangled C++): the name column gets at most 40% of the width, elided
    // in the middle (the whole name is in the tooltip), so the numbers beside it stay in view.
    const int cap = std::max(160, m_resources->viewport()->width() * 2 / 5);
    if (m_resources->columnWidth(0) > cap)
        m_resources->setColumnWidth(0, cap);
}

void KernelVerdictView::showCorrectness(const KernelVerdict &verdict)
{
    m_correctness->setRowCount(int(verdict.correctness.size()));
    int row = 0;
    for (const KernelCorrectnessRow &c : verdict.correctness) {
        setRow(m_correctness, row,
               {c.shape, QString::number(c.seed), c.passed ? tr("pass") : tr("FAIL"), number(c.maxAbsError),
                number(c.maxRelError), number(c.relL2Error), QStringLiteral("%1 / %2").arg(c.mismatches).arg(c.elements),
                c.failure});
        if (!c.passed)
            m_correctness->item(row, 2)->setForeground(QColor(176, 0, 32));
        ++row;
    }
    m_correctness->resizeColumnsToContents();
}

void KernelVerdictView::showTiming(const KernelVerdict &verdict)
{
    m_timing->setRowCount(int(verdict.timing.size()));
    int row = 0;
    auto *speedups = new QBarSet(tr("Speedup over baseline (×)"));
    auto *fractions = new QLineSeries;
    fractions->setName(tr("Fraction of speed-of-light"));
    fractions->setPointsVisible(true);
    QStringList shapes;
    double maxSpeedup = 1.0;
    for (const KernelTimingRow &t : verdict.timing) {
        setRow(m_timing, row++,
               {t.shape, t.dims, number(t.candidateMedianUs, 4),
                QStringLiteral("%1 – %2").arg(number(t.candidateLowUs, 4), number(t.candidateHighUs, 4)),
                number(t.baselineMedianUs, 4), QStringLiteral("%1×").arg(number(t.speedup)),
                number(t.bandwidthGbs, 4), QStringLiteral("%1%").arg(number(t.fractionOfSpeedOfLight * 100, 3)),
                ofPeak(t), t.flags.join(QStringLiteral("; "))});
        *speedups << t.speedup;
        fractions->append(double(shapes.size()), t.fractionOfSpeedOfLight);
        shapes << t.shape;
        maxSpeedup = std::max(maxSpeedup, t.speedup);
    }
    m_timing->resizeColumnsToContents();
    if (shapes.isEmpty()) {
        delete speedups;
        delete fractions;
        return;
    }
    auto *bars = new QBarSeries;
    bars->append(speedups);
    m_chart->addSeries(bars);
    m_chart->addSeries(fractions);
    auto *categories = new QBarCategoryAxis;
    categories->append(shapes);
    auto *speedAxis = new QValueAxis;
    speedAxis->setTitleText(tr("speedup (×)"));
    speedAxis->setRange(0, maxSpeedup * 1.15);
    auto *fractionAxis = new QValueAxis;
    fractionAxis->setTitleText(tr("fraction of speed-of-light"));
    fractionAxis->setRange(0, 1.0);
    m_chart->addAxis(categories, Qt::AlignBottom);
    m_chart->addAxis(speedAxis, Qt::AlignLeft);
    m_chart->addAxis(fractionAxis, Qt::AlignRight);
    bars->attachAxis(categories);
    bars->attachAxis(speedAxis);
    fractions->attachAxis(categories);
    fractions->attachAxis(fractionAxis);
}

} // namespace sf
