#include "TaskSpec.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace sf::kernels {

namespace {

struct Json
{
    enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
    double number = 0.0;
    bool boolean = false;
    std::string text;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;

    const Json *get(const std::string &key) const
    {
        for (const auto &m : members) {
            if (m.first == key)
                return &m.second;
        }
        return nullptr;
    }
};

class Reader
{
public:
    explicit Reader(const std::string &s) : m_s(s) {}

    bool parse(Json *out, std::string *error)
    {
        if (!value(out, 0) || (skip(), m_pos != m_s.size())) {
            *error = "invalid JSON near byte " + std::to_string(m_pos);
            return false;
        }
        return true;
    }

private:
    void skip()
    {
        while (m_pos < m_s.size() && (m_s[m_pos] == ' ' || m_s[m_pos] == '\n' || m_s[m_pos] == '\r' || m_s[m_pos] == '\t'))
            ++m_pos;
    }
    bool literal(const char *word)
    {
        const std::string w(word);
        if (m_s.compare(m_pos, w.size(), w) != 0)
            return false;
        m_pos += w.size();
        return true;
    }
    bool string(std::string *out)
    {
        if (m_s[m_pos] != '"')
            return false;
        ++m_pos;
        while (m_pos < m_s.size() && m_s[m_pos] != '"') {
            char c = m_s[m_pos++];
            if (c == '\\') {
                if (m_pos >= m_s.size())
                    return false;
                const char e = m_s[m_pos++];
                switch (e) {
                case 'n': c = '\n'; break;
                case 't': c = '\t'; break;
                case 'r': c = '\r'; break;
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'u': { // the runner only needs ASCII names; other characters become '?'
                    if (m_pos + 4 > m_s.size())
                        return false;
                    const long code = std::strtol(m_s.substr(m_pos, 4).c_str(), nullptr, 16);
                    c = code < 128 ? char(code) : '?';
                    m_pos += 4;
                    break;
                }
                default: c = e;
                }
            }
            out->push_back(c);
        }
        if (m_pos >= m_s.size())
            return false;
        ++m_pos;
        return true;
    }
    bool value(Json *out, int depth)
    {
        skip();
        if (m_pos >= m_s.size() || depth > 64)
            return false;
        const char c = m_s[m_pos];
        if (c == '{') {
            out->kind = Json::Kind::Object;
            ++m_pos;
            skip();
            if (m_pos < m_s.size() && m_s[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            for (;;) {
                skip();
                std::string key;
                if (m_pos >= m_s.size() || !string(&key))
                    return false;
                skip();
                if (m_pos >= m_s.size() || m_s[m_pos++] != ':')
                    return false;
                Json v;
                if (!value(&v, depth + 1))
                    return false;
                out->members.emplace_back(std::move(key), std::move(v));
                skip();
                if (m_pos < m_s.size() && m_s[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                if (m_pos < m_s.size() && m_s[m_pos] == '}') {
                    ++m_pos;
                    return true;
                }
                return false;
            }
        }
        if (c == '[') {
            out->kind = Json::Kind::Array;
            ++m_pos;
            skip();
            if (m_pos < m_s.size() && m_s[m_pos] == ']') {
                ++m_pos;
                return true;
            }
            for (;;) {
                Json v;
                if (!value(&v, depth + 1))
                    return false;
                out->items.push_back(std::move(v));
                skip();
                if (m_pos < m_s.size() && m_s[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                if (m_pos < m_s.size() && m_s[m_pos] == ']') {
                    ++m_pos;
                    return true;
                }
                return false;
            }
        }
        if (c == '"') {
            out->kind = Json::Kind::String;
            return string(&out->text);
        }
        if (literal("true")) {
            out->kind = Json::Kind::Bool;
            out->boolean = true;
            return true;
        }
        if (literal("false")) {
            out->kind = Json::Kind::Bool;
            return true;
        }
        if (literal("null"))
            return true;
        const char *start = m_s.c_str() + m_pos;
        char *end = nullptr;
        out->number = std::strtod(start, &end);
        if (end == start)
            return false;
        out->kind = Json::Kind::Number;
        m_pos += size_t(end - start);
        return true;
    }

    const std::string &m_s;
    size_t m_pos = 0;
};

} // namespace

bool parseTaskSpec(const std::string &text, TaskSpec *spec, std::string *error)
{
    Json root;
    if (!Reader(text).parse(&root, error))
        return false;
    auto str = [&](const char *key) -> std::string {
        const Json *v = root.get(key);
        return v && v->kind == Json::Kind::String ? v->text : std::string();
    };
    spec->id = str("id");
    spec->entry = str("entry");
    spec->op = findOp(str("op"));
    if (spec->id.empty() || spec->entry.empty() || !spec->op) {
        *error = "the task needs \"id\", \"entry\" and a known \"op\"";
        return false;
    }
    spec->scalars = spec->op->defaultScalars;
    if (const Json *scalars = root.get("scalars")) {
        for (const auto &m : scalars->members) {
            const auto it = std::find(spec->op->scalars.begin(), spec->op->scalars.end(), m.first);
            if (it == spec->op->scalars.end() || m.second.kind != Json::Kind::Number) {
                *error = "unknown scalar \"" + m.first + "\"";
                return false;
            }
            spec->scalars[size_t(it - spec->op->scalars.begin())] = m.second.number;
        }
    }
    if (const Json *tolerances = root.get("tolerances")) {
        for (const auto &m : tolerances->members) {
            const Json *atol = m.second.get("atol");
            const Json *rtol = m.second.get("rtol");
            if (!atol || !rtol || atol->kind != Json::Kind::Number || rtol->kind != Json::Kind::Number) {
                *error = "tolerance for " + m.first + " needs atol and rtol";
                return false;
            }
            spec->tolerances[m.first] = Tolerance{atol->number, rtol->number};
        }
    }
    const Json *shapes = root.get("shapes");
    if (!shapes || shapes->items.empty()) {
        *error = "the task lists no shapes";
        return false;
    }
    for (const Json &s : shapes->items) {
        TaskShape shape;
        const Json *name = s.get("name");
        const Json *dims = s.get("dims");
        shape.name = name ? name->text : std::string();
        for (const std::string &dim : spec->op->dims) {
            const Json *v = dims ? dims->get(dim) : nullptr;
            if (!v || v->kind != Json::Kind::Number) {
                *error = "shape \"" + shape.name + "\" lacks \"" + dim + "\"";
                return false;
            }
            shape.dims.push_back(int64_t(v->number));
        }
        if (const std::string problem = spec->op->checkDims(shape.dims); !problem.empty()) {
            *error = "shape \"" + shape.name + "\": " + problem;
            return false;
        }
        spec->shapes.push_back(std::move(shape));
    }
    return true;
}

} // namespace sf::kernels
