#pragma once
// ElidingComboBox: a combo box whose closed text fits its width, and whose list and tooltip show
// it in full. A form column of 160 px clipped "qwen3-235b-a22b (235.1 B)" mid-character.

#include <QComboBox>

namespace weft {

/// "GB200 (Blackwell GPU in NVL72)" -> "GB200": `text` without a trailing parenthesised
/// qualifier (unchanged when it has none).
QString withoutQualifier(const QString &text);

/// The pixels the closed `box` has for its text.
[[nodiscard]] int comboTextWidth(const QComboBox &box);

class ElidingComboBox : public QComboBox
{
    Q_OBJECT
public:
    using QComboBox::QComboBox;

    /// The current text as drawn in `width` pixels of text: whole if it fits, else without its
    /// qualifier ("qwen3-235b-a22b"), else that elided at the end.
    [[nodiscard]] QString shownText(int width) const;
    /// The pixels the closed box has for its text.
    [[nodiscard]] int textWidth() const { return comboTextWidth(*this); }

protected:
    /// The tooltip starts with the whole current text when the box shows it shortened.
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void showPopup() override;
};

} // namespace weft
