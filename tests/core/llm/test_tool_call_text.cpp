// Tool calls that small local models write into their reply's text (seen with Qwen2.5-Coder-1.5B
// through llama-server: a fenced JSON object instead of tool_calls).
#include "SkippedChecks.h"
#include "llm/ToolCallText.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

QList<ToolDefinition> studentTools()
{
    return {{u"write_file"_s, u"Write a file"_s, "{}"}, {u"run_command"_s, u"Run a command"_s, "{}"}};
}

QJsonObject argumentsOf(const ToolCall &call)
{
    return QJsonDocument::fromJson(call.arguments).object();
}

} // namespace

class TestToolCallText final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fencedJsonObject_asTheModelWroteIt_isACall()
    {
        // The reply the embedded model gave when asked to write hello.txt with tools offered.
        const QString text =
            u"```json\n{\n  \"name\": \"write_file\",\n  \"arguments\": {\n    \"path\": \"hello.txt\",\n"
            "    \"content\": \"hi\"\n  }\n}\n```"_s;
        const TextToolCalls found = toolCallsInText(text, studentTools());
        QCOMPARE(found.calls.size(), 1);
        QCOMPARE(found.calls[0].name, u"write_file"_s);
        QCOMPARE(found.calls[0].id, u"text_call_1"_s);
        QCOMPARE(argumentsOf(found.calls[0]).value("path"_L1).toString(), u"hello.txt"_s);
        QCOMPARE(argumentsOf(found.calls[0]).value("content"_L1).toString(), u"hi"_s);
        QCOMPARE(found.remainingText, QString());
    }

    void templateTags_severalCalls_inOrder_withProseKept()
    {
        const QString text =
            u"I will write the file and compile it.\n"
            "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.cu\", \"content\": "
            "\"int main() { return 0; }\"}}\n</tool_call>\n"
            "<tool_call>\n{\"name\": \"run_command\", \"arguments\": {\"command\": \"nvcc -c a.cu\"}}\n"
            "</tool_call>"_s;
        const TextToolCalls found = toolCallsInText(text, studentTools(), 5);
        QCOMPARE(found.calls.size(), 2);
        QCOMPARE(found.calls[0].name, u"write_file"_s);
        QCOMPARE(argumentsOf(found.calls[0]).value("content"_L1).toString(), u"int main() { return 0; }"_s);
        QCOMPARE(found.calls[1].name, u"run_command"_s);
        QCOMPARE(found.calls[1].id, u"text_call_6"_s);
        QCOMPARE(found.remainingText, u"I will write the file and compile it."_s);
    }

    void argumentsAsAJsonString_parametersKey_andTheFunctionWrapper_areRead()
    {
        // (moc misreads raw strings that hold \", so these are plain literals.)
        const QString asString = u"{\"name\": \"run_command\", \"arguments\": \"{\\\"command\\\": \\\"ls\\\"}\"}"_s;
        QCOMPARE(argumentsOf(toolCallsInText(asString, studentTools()).calls.value(0)).value("command"_L1).toString(),
                 u"ls"_s);
        const QString parameters = uR"({"name": "run_command", "parameters": {"command": "pwd"}})"_s;
        QCOMPARE(argumentsOf(toolCallsInText(parameters, studentTools()).calls.value(0)).value("command"_L1).toString(),
                 u"pwd"_s);
        const QString wrapped = uR"({"function": {"name": "run_command", "arguments": {"command": "id"}}})"_s;
        QCOMPARE(argumentsOf(toolCallsInText(wrapped, studentTools()).calls.value(0)).value("command"_L1).toString(),
                 u"id"_s);
    }

    void jsonThatNamesNoOfferedTool_staysTheAnswer()
    {
        const QString answer =
            u"The config is:\n```json\n{\"name\": \"rmsnorm\", \"arguments\": {\"eps\": 1e-6}}\n```"_s;
        const TextToolCalls found = toolCallsInText(answer, studentTools());
        QVERIFY(found.calls.isEmpty());
        QCOMPARE(found.remainingText, answer);
    }

    void noToolsOffered_findsNothing()
    {
        const QString text = uR"({"name": "write_file", "arguments": {"path": "x"}})"_s;
        QVERIFY(toolCallsInText(text, {}).calls.isEmpty());
    }

    void bracesInsideStrings_andBrokenJson_doNotConfuseIt()
    {
        const QString text = u"{\"name\": \"write_file\", \"arguments\": {\"path\": \"k.cu\", \"content\": "
                             "\"if (x) { y(); } \\\"}\\\"\"}} and then {\"name\": \"run_command\", \"arguments\": "
                             "{\"command\": "_s;
        const TextToolCalls found = toolCallsInText(text, studentTools());
        QCOMPARE(found.calls.size(), 1);
        QCOMPARE(argumentsOf(found.calls[0]).value("content"_L1).toString(), u"if (x) { y(); } \"}\""_s);
        QVERIFY(found.remainingText.contains("run_command"_L1)); // the unfinished call is left as text
    }
};

SF_TEST_GUILESS_MAIN(TestToolCallText)
#include "test_tool_call_text.moc"
