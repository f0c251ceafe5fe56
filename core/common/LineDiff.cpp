#include "common/LineDiff.h"

#include <QHash>
#include <vector>

namespace sf {

namespace {

/// Marks the lines that a shortest edit script removes from `a` and adds from `b`; every unmarked pair,
/// walked in order, is equal. Follows Myers (1986), section 4b: find the middle snake of the box with a
/// forward and a backward search, then solve the boxes before and after it.
class MyersDiff final
{
public:
    MyersDiff(const std::vector<int> &a, const std::vector<int> &b)
        : m_a(a)
        , m_b(b)
        , m_removed(a.size(), false)
        , m_added(b.size(), false)
    {
    }

    void run() { compare(0, int(m_a.size()), 0, int(m_b.size())); }
    const std::vector<bool> &removed() const { return m_removed; }
    const std::vector<bool> &added() const { return m_added; }

private:
    struct Snake
    {
        int startX, startY, endX, endY;
        bool forward;
    };

    void compare(int left, int right, int top, int bottom)
    {
        while (left < right && top < bottom && m_a[size_t(left)] == m_b[size_t(top)]) {
            ++left;
            ++top;
        }
        while (left < right && top < bottom && m_a[size_t(right - 1)] == m_b[size_t(bottom - 1)]) {
            --right;
            --bottom;
        }
        if (left == right) {
            for (int y = top; y < bottom; ++y)
                m_added[size_t(y)] = true;
            return;
        }
        if (top == bottom) {
            for (int x = left; x < right; ++x)
                m_removed[size_t(x)] = true;
            return;
        }
        const Snake snake = middleSnake(left, right, top, bottom);
        markEdit(snake);
        compare(left, snake.startX, top, snake.startY);
        compare(snake.endX, right, snake.endY, bottom);
    }

    /// A snake holds at most one edit: the first step of a forward snake, the last step of a backward one;
    /// the rest is diagonal (equal lines).
    void markEdit(const Snake &snake)
    {
        const int dx = snake.endX - snake.startX;
        const int dy = snake.endY - snake.startY;
        if (dx == dy)
            return;
        if (dx > dy)
            m_removed[size_t(snake.forward ? snake.startX : snake.endX - 1)] = true;
        else
            m_added[size_t(snake.forward ? snake.startY : snake.endY - 1)] = true;
    }

    Snake middleSnake(int left, int right, int top, int bottom)
    {
        const int width = right - left;
        const int height = bottom - top;
        const int delta = width - height;
        const bool odd = (delta & 1) != 0;
        const int max = (width + height + 1) / 2;
        const int offset = max + 1;
        // vf[k]: furthest x on forward diagonal k = x - y (relative); vb[c]: furthest (smallest) y on backward
        // diagonal c = k - delta.
        std::vector<int> vf(size_t(2 * max + 3), 0);
        std::vector<int> vb(size_t(2 * max + 3), 0);
        const auto f = [&](int k) -> int & { return vf[size_t(k + offset)]; };
        const auto b = [&](int c) -> int & { return vb[size_t(c + offset)]; };
        f(1) = left;
        b(1) = bottom;

        for (int d = 0; d <= max; ++d) {
            for (int k = -d; k <= d; k += 2) {
                int x = 0;
                int px = 0;
                if (k == -d || (k != d && f(k - 1) < f(k + 1))) {
                    px = x = f(k + 1);
                } else {
                    px = f(k - 1);
                    x = px + 1;
                }
                int y = top + (x - left) - k;
                const int py = (d == 0 || x != px) ? y : y - 1;
                while (x < right && y < bottom && m_a[size_t(x)] == m_b[size_t(y)]) {
                    ++x;
                    ++y;
                }
                f(k) = x;
                const int c = k - delta;
                if (odd && c >= -(d - 1) && c <= d - 1 && y >= b(c))
                    return {px, py, x, y, true};
            }
            for (int c = -d; c <= d; c += 2) {
                int y = 0;
                int py = 0;
                if (c == -d || (c != d && b(c - 1) > b(c + 1))) {
                    py = y = b(c + 1);
                } else {
                    py = b(c - 1);
                    y = py - 1;
                }
                const int k = c + delta;
                int x = left + (y - top) + k;
                const int px = (d == 0 || y != py) ? x : x + 1;
                while (x > left && y > top && m_a[size_t(x - 1)] == m_b[size_t(y - 1)]) {
                    --x;
                    --y;
                }
                b(c) = y;
                if (!odd && k >= -d && k <= d && x <= f(k))
                    return {x, y, px, py, false};
            }
        }
        // Unreachable: the forward and backward searches always meet by d = max.
        return {left, top, right, bottom, true};
    }

    const std::vector<int> &m_a;
    const std::vector<int> &m_b;
    std::vector<bool> m_removed;
    std::vector<bool> m_added;
};

} // namespace

QList<DiffLine> diffLines(const QStringList &oldLines, const QStringList &newLines)
{
    // Intern the lines so that the search compares integers.
    QHash<QString, int> ids;
    const auto intern = [&ids](const QStringList &lines) {
        std::vector<int> out;
        out.reserve(size_t(lines.size()));
        for (const QString &line : lines) {
            auto it = ids.constFind(line);
            if (it == ids.constEnd())
                it = ids.insert(line, int(ids.size()));
            out.push_back(*it);
        }
        return out;
    };
    const std::vector<int> a = intern(oldLines);
    const std::vector<int> b = intern(newLines);

    // A line that occurs on one side only is in no common subsequence: mark it at once and run the search on
    // the rest. The script stays minimal, and texts with little in common (the worst case of the search)
    // shrink to almost nothing.
    std::vector<bool> inA(ids.size(), false);
    std::vector<bool> inB(ids.size(), false);
    for (const int id : a)
        inA[size_t(id)] = true;
    for (const int id : b)
        inB[size_t(id)] = true;
    std::vector<bool> removed(a.size(), true);
    std::vector<bool> added(b.size(), true);
    std::vector<int> keptA, keptB;   // the lines searched
    std::vector<int> whereA, whereB; // their indexes in a and b
    for (size_t i = 0; i < a.size(); ++i) {
        if (inB[size_t(a[i])]) {
            keptA.push_back(a[i]);
            whereA.push_back(int(i));
        }
    }
    for (size_t j = 0; j < b.size(); ++j) {
        if (inA[size_t(b[j])]) {
            keptB.push_back(b[j]);
            whereB.push_back(int(j));
        }
    }
    MyersDiff differ(keptA, keptB);
    differ.run();
    for (size_t i = 0; i < keptA.size(); ++i)
        removed[size_t(whereA[i])] = differ.removed()[i];
    for (size_t j = 0; j < keptB.size(); ++j)
        added[size_t(whereB[j])] = differ.added()[j];

    QList<DiffLine> script;
    script.reserve(qMax(oldLines.size(), newLines.size()));
    int i = 0;
    int j = 0;
    const int n = int(a.size());
    const int m = int(b.size());
    while (i < n || j < m) {
        if (i < n && removed[size_t(i)]) {
            script.append({DiffLine::Kind::Removed, i++, -1});
        } else if (j < m && added[size_t(j)]) {
            script.append({DiffLine::Kind::Added, -1, j++});
        } else {
            script.append({DiffLine::Kind::Same, i++, j++});
        }
    }
    return script;
}

QList<DiffRow> sideBySideRows(const QList<DiffLine> &diff)
{
    QList<DiffRow> rows;
    rows.reserve(diff.size());
    qsizetype i = 0;
    while (i < diff.size()) {
        if (diff[i].kind == DiffLine::Kind::Same) {
            rows.append({DiffRow::Kind::Same, diff[i].oldIndex, diff[i].newIndex});
            ++i;
            continue;
        }
        // A block of edits: its removed lines, then its added lines, in order.
        QList<int> removed;
        QList<int> added;
        while (i < diff.size() && diff[i].kind != DiffLine::Kind::Same) {
            if (diff[i].kind == DiffLine::Kind::Removed)
                removed.append(diff[i].oldIndex);
            else
                added.append(diff[i].newIndex);
            ++i;
        }
        const qsizetype paired = qMin(removed.size(), added.size());
        for (qsizetype p = 0; p < paired; ++p)
            rows.append({DiffRow::Kind::Changed, removed[p], added[p]});
        for (qsizetype p = paired; p < removed.size(); ++p)
            rows.append({DiffRow::Kind::Removed, removed[p], -1});
        for (qsizetype p = paired; p < added.size(); ++p)
            rows.append({DiffRow::Kind::Added, -1, added[p]});
    }
    return rows;
}

QStringList splitLines(const QString &text)
{
    if (text.isEmpty())
        return {};
    QStringList lines = text.split(u'\n');
    if (text.endsWith(u'\n'))
        lines.removeLast();
    for (QString &line : lines) {
        if (line.endsWith(u'\r'))
            line.chop(1);
    }
    return lines;
}

} // namespace sf
