#pragma once

#include "common/ViewPage.h"

namespace sf {

class EmptyState;

/// The Compare view: with- and without-skill results of a run, side by side. Until the project has
/// an evaluation run it explains how to get one.
class CompareView final : public ViewPage
{
    Q_OBJECT

public:
    explicit CompareView(QWidget *parent = nullptr);
    void setProject(const Project *project) override;

private:
    EmptyState *m_empty;
};

} // namespace sf
