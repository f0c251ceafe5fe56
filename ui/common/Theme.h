#pragma once

#include <QColor>
#include <QString>

class QApplication;

namespace sf {

/// The application's look: the system palette by default, or an explicit light or dark one.
class Theme final
{
public:
    enum class Mode { System, Light, Dark };

    static Mode modeFromName(const QString &name);
    static QString nameOf(Mode mode);
    static void apply(Mode mode);
    /// True when the current palette has light text on a dark window.
    static bool isDark();

    /// Status colours that keep their meaning on light and dark palettes and for colour-blind users
    /// (blue/orange rather than green/red).
    static QColor success();
    static QColor failure();
    static QColor muted();
    /// A table cell's background for a pass share in [0, 1]: from failure to success, mixed into the base colour
    /// so the text on it stays readable. The Runs grid and Compare's case matrix both use it.
    static QColor passShareBackground(double share);
    /// A cell that ended in an error rather than a verdict.
    static QColor errorBackground();

    /// The least contrast any text gets against what is behind it (WCAG 2's AA level for body text).
    static constexpr double MinContrast = 4.5;
    /// WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white); a translucent @p a is
    /// taken as seen over @p b.
    static double contrastRatio(const QColor &a, const QColor &b);
    /// @p colour, made darker or lighter as little as needed to read at @p ratio on @p background.
    static QColor readableOn(const QColor &colour, const QColor &background, double ratio = MinContrast);
    /// The palette's text colour where it reads on @p background, else black or white: for a cell given a
    /// background of its own, so the pair stays readable even when the palette changes after it was painted.
    static QColor textOn(const QColor &background);

    enum class Status
    {
        Pass,
        Fail,
        Warn
    };
    /// A row or cell that carries a status: a tint of the status' hue over the base colour, on which both the
    /// palette's text and @c foreground (text in the status' hue) read at MinContrast or better.
    struct StatusColors
    {
        QColor background;
        QColor foreground;
    };
    static StatusColors statusColors(Status status);
    /// Text in the status' hue (a "failed" label, a FAIL cell) that reads on @p background.
    static QColor statusText(Status status, const QColor &background);
    /// The same on the palette's window colour (labels) or base colour (cells, editors).
    static QColor statusTextOnWindow(Status status);
    static QColor statusTextOnBase(Status status);
};

} // namespace sf
