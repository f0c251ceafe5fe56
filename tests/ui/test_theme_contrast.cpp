// Every text the window shows reads at 4.5:1 or better against what is behind it, in the light and the dark theme
// (issue 35, item 6): item models' coloured cells, labels coloured by a style sheet, a palette or inline rich text,
// editors' marked lines, and the colours the timeline's delegate paints with.
#include "MainWindow.h"
#include "SkippedChecks.h"
#include "common/Theme.h"
#include "common/ViewPage.h"
#include "jobs/JobListModel.h"
#include "kernels/KernelVerdict.h"
#include "kernels/KernelsView.h"
#include "project/SampleProject.h"
#include "trace/StepDelegate.h"
#include "trace/Trace.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QBrush>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

/// A cell's or a format's colour; none for an empty value or a pattern (a hatched cell shows the base through it).
std::optional<QColor> colourOf(const QVariant &value)
{
    if (!value.isValid())
        return std::nullopt;
    if (value.canConvert<QBrush>()) {
        const QBrush brush = value.value<QBrush>();
        if (brush.style() != Qt::SolidPattern)
            return std::nullopt;
        return brush.color();
    }
    if (value.canConvert<QColor>())
        return value.value<QColor>();
    return std::nullopt;
}

/// @p over, translucent, as seen on @p under.
QColor blend(const QColor &over, const QColor &under)
{
    const double a = over.alphaF();
    return QColor::fromRgbF(float(over.redF() * a + under.redF() * (1 - a)),
                            float(over.greenF() * a + under.greenF() * (1 - a)),
                            float(over.blueF() * a + under.blueF() * (1 - a)));
}

/// The colours a style sheet or rich text names (#rgb, #rrggbb or a name); none where it names no plain colour.
std::optional<QColor> namedColour(const QString &text, const QString &property)
{
    const QRegularExpression pattern(u"(?<![-\\w])"_s + property + u"\\s*:\\s*(#[0-9a-fA-F]{3,8}|[a-zA-Z]+)"_s);
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    const QColor colour = QColor::fromString(match.captured(1));
    return colour.isValid() ? std::optional<QColor>(colour) : std::nullopt;
}

class ContrastCheck
{
public:
    explicit ContrastCheck(QString theme)
        : m_theme(std::move(theme))
    {
    }

    void check(const QString &where, const QColor &text, const QColor &background)
    {
        ++m_checked;
        const double ratio = Theme::contrastRatio(text, background);
        if (ratio < Theme::MinContrast)
            m_failures << u"%1 (%2): %3 on %4 is %5:1"_s.arg(where, m_theme, text.name(), background.name())
                              .arg(ratio, 0, 'f', 2);
    }

    void walkModels(QWidget *root, const QString &view)
    {
        for (QAbstractItemView *itemView : root->findChildren<QAbstractItemView *>()) {
            if (QAbstractItemModel *model = itemView->model())
                walk(*itemView, *model, QModelIndex(), view + u" / "_s + name(itemView));
        }
    }

    void walkLabels(QWidget *root, const QString &view)
    {
        for (QLabel *label : root->findChildren<QLabel *>()) {
            if (label->text().isEmpty() || !label->isEnabled())
                continue; // a disabled control's text is exempt
            const QString where = view + u" / label "_s + name(label) + u" \""_s + label->text().left(40) + u'"';
            const QPalette palette = label->palette();
            const QColor background = namedColour(label->styleSheet(), u"background(-color)?"_s)
                                          .value_or(palette.color(label->backgroundRole()));
            check(where, namedColour(label->styleSheet(), u"color"_s).value_or(palette.color(label->foregroundRole())),
                  background);
            // Inline colours in rich text: every one of them.
            static const QRegularExpression inlineColour(u"(?<![-\\w])color\\s*:\\s*(#[0-9a-fA-F]{3,8})"_s);
            for (const QRegularExpressionMatch &match : inlineColour.globalMatch(label->text()))
                check(where, QColor::fromString(match.captured(1)), background);
        }
    }

    void walkEditors(QWidget *root, const QString &view)
    {
        const auto marks = [&](QWidget *editor, const QList<QTextEdit::ExtraSelection> &selections) {
            for (const QTextEdit::ExtraSelection &selection : selections) {
                std::optional<QColor> background = colourOf(selection.format.property(QTextFormat::BackgroundBrush));
                if (!background)
                    continue;
                if (background->alpha() < 255) // a tint over the editor's base (the current line)
                    background = blend(*background, editor->palette().color(QPalette::Base));
                const QColor text = colourOf(selection.format.property(QTextFormat::ForegroundBrush))
                                        .value_or(editor->palette().color(QPalette::Text));
                check(view + u" / marked line in "_s + name(editor), text, *background);
            }
        };
        for (QPlainTextEdit *editor : root->findChildren<QPlainTextEdit *>())
            marks(editor, editor->extraSelections());
        for (QTextEdit *editor : root->findChildren<QTextEdit *>())
            marks(editor, editor->extraSelections());
    }

    int checked() const { return m_checked; }
    const QStringList &failures() const { return m_failures; }

private:
    static QString name(const QObject *object)
    {
        return object->objectName().isEmpty() ? QString::fromLatin1(object->metaObject()->className())
                                              : object->objectName();
    }

    void walk(const QAbstractItemView &view, const QAbstractItemModel &model, const QModelIndex &parent,
              const QString &where, int depth = 0)
    {
        const int rows = std::min(model.rowCount(parent), 400);
        for (int row = 0; row < rows; ++row) {
            for (int column = 0; column < model.columnCount(parent); ++column) {
                const QModelIndex index = model.index(row, column, parent);
                const std::optional<QColor> foreground = colourOf(index.data(Qt::ForegroundRole));
                const std::optional<QColor> background = colourOf(index.data(Qt::BackgroundRole));
                if ((foreground || background) && !index.data(Qt::DisplayRole).toString().isEmpty())
                    check(u"%1 cell (%2, %3) \"%4\""_s.arg(where).arg(row).arg(column).arg(
                              index.data(Qt::DisplayRole).toString().left(30)),
                          foreground.value_or(view.palette().color(QPalette::Text)),
                          background.value_or(view.palette().color(QPalette::Base)));
            }
            if (depth < 3 && model.hasChildren(model.index(row, 0, parent)))
                walk(view, model, model.index(row, 0, parent), where, depth + 1);
        }
    }

    QString m_theme;
    QStringList m_failures;
    int m_checked = 0;
};

} // namespace

class TestThemeContrast final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_project;

    void walkTheWindow(Theme::Mode mode)
    {
        Theme::apply(mode);
        ContrastCheck contrast(Theme::nameOf(mode));
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project, true), QString());
        window.resize(1360, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (const MainWindow::View view : MainWindow::AllViews) {
            window.showView(view);
            window.openFirstItemFor(view);
            if (view == MainWindow::View::Kernels) {
                // A kernel that did not build: the compiler's error line and the "failed" label.
                QFile file(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/kernels/verdict_build_error.json"));
                QVERIFY(file.open(QIODevice::ReadOnly));
                static_cast<KernelsView *>(window.page(view))
                    ->showVerdict(KernelVerdict::fromJson(QJsonDocument::fromJson(file.readAll()).object()));
            }
            QTRY_VERIFY_WITH_TIMEOUT(!window.page(view)->isBusy(), 20000);
            QApplication::processEvents();
            const QString name = MainWindow::viewName(view);
            contrast.walkModels(window.page(view), name);
            contrast.walkLabels(window.page(view), name);
            contrast.walkEditors(window.page(view), name);
        }
        contrast.walkModels(&window, u"window"_s); // the sidebar and the Jobs panel
        contrast.walkLabels(&window, u"window"_s);

        // What the timeline's delegate paints: each kind's label, an error row's tint with its label and text.
        const QPalette palette = QApplication::palette();
        for (int kind = 0; kind < StepKindCount; ++kind)
            contrast.check(u"trace / kind label "_s + StepDelegate::kindLabel(kind), StepDelegate::kindColor(kind),
                           palette.color(QPalette::Base));
        for (const Theme::Status status : {Theme::Status::Pass, Theme::Status::Fail, Theme::Status::Warn}) {
            const Theme::StatusColors colours = Theme::statusColors(status);
            contrast.check(u"status %1 text on its tint"_s.arg(int(status)), colours.foreground, colours.background);
            contrast.check(u"status %1 tint under the text"_s.arg(int(status)), palette.color(QPalette::Text),
                           colours.background);
            contrast.check(u"status %1 on the window"_s.arg(int(status)), Theme::statusTextOnWindow(status),
                           palette.color(QPalette::Window));
            contrast.check(u"status %1 on the base"_s.arg(int(status)), Theme::statusTextOnBase(status),
                           palette.color(QPalette::Base));
        }
        for (const double share : {0.0, 0.25, 0.5, 0.75, 1.0})
            contrast.check(u"pass share %1"_s.arg(share), palette.color(QPalette::Text),
                           Theme::passShareBackground(share));
        contrast.check(u"error cell"_s, palette.color(QPalette::Text), Theme::errorBackground());
        contrast.check(u"placeholder text"_s, palette.color(QPalette::PlaceholderText), palette.color(QPalette::Base));
        contrast.check(u"muted text"_s, Theme::muted(), palette.color(QPalette::Window));
        contrast.check(u"selected text"_s, palette.color(QPalette::HighlightedText),
                       palette.color(QPalette::Highlight));

        QVERIFY2(contrast.checked() > 100, qPrintable(QString::number(contrast.checked())));
        QVERIFY2(contrast.failures().isEmpty(), qPrintable(contrast.failures().join(u'\n')));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(u"skillforge-test-contrast"_s);
        m_project = m_dir.filePath(u"sample"_s);
        QCOMPARE(SampleProject::ensureInstalled(m_project), QString());
    }

    void contrastRatio_isWcags()
    {
        QCOMPARE(Theme::contrastRatio(Qt::black, Qt::white), 21.0);
        QCOMPARE(Theme::contrastRatio(Qt::white, Qt::white), 1.0);
        QVERIFY(qAbs(Theme::contrastRatio(QColor(0x77, 0x77, 0x77), Qt::white) - 4.48) < 0.01);
        QVERIFY(qAbs(Theme::contrastRatio(QColor(0x76, 0x76, 0x76), Qt::white) - 4.54) < 0.01);
        // Symmetric, and a translucent text is taken as seen over its background.
        QCOMPARE(Theme::contrastRatio(Qt::white, Qt::black), 21.0);
        QVERIFY(Theme::contrastRatio(QColor(0, 0, 0, 128), Qt::white) < 5.0);
        // readableOn keeps a colour that reads and mends one that does not.
        QCOMPARE(Theme::readableOn(Qt::black, Qt::white), QColor(Qt::black));
        QVERIFY(Theme::contrastRatio(Theme::readableOn(QColor(0xff, 0xeb, 0xee), Qt::white), Qt::white) >= 4.5);
        QVERIFY(Theme::contrastRatio(Theme::readableOn(QColor(0xb0, 0x00, 0x20), QColor(0x2b, 0x2d, 0x31)),
                                     QColor(0x2b, 0x2d, 0x31)) >= 4.5);
    }

    void everyView_light() { walkTheWindow(Theme::Mode::Light); }
    void everyView_dark() { walkTheWindow(Theme::Mode::Dark); }

    void cleanupTestCase() { Theme::apply(Theme::Mode::System); }
};

SF_TEST_MAIN(TestThemeContrast)
#include "test_theme_contrast.moc"
