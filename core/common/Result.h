#pragma once

#include <QString>
#include <optional>
#include <utility>

namespace sf {

/**
 * A value or an error message: a stand-in for std::expected, which g++ 12 lacks.
 */
template <typename T> struct Result
{
    std::optional<T> value;
    QString error;

    static Result success(T v) { return Result{std::optional<T>(std::move(v)), QString()}; }
    static Result failure(QString message) { return Result{std::nullopt, std::move(message)}; }

    bool ok() const { return value.has_value(); }
    explicit operator bool() const { return ok(); }
};

} // namespace sf
