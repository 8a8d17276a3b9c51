#pragma once
// LegendFold: whether a canvas legend shows only its title. The user's click decides from then
// on; until the user has chosen, a crowded viewport folds it (LegendLayout::crowded).

namespace weft {

class LegendFold
{
public:
    /// Shown as its title only: the user's choice, else whether the viewport is crowded.
    [[nodiscard]] bool folded() const { return m_chosen ? m_folded : m_crowded; }
    /// The user's choice (a click), kept from then on.
    void choose(bool folded)
    {
        m_chosen = true;
        m_folded = folded;
    }
    /// The viewport became crowded or clear; true when that changes what is shown.
    bool setCrowded(bool crowded)
    {
        const bool changed = crowded != m_crowded && !m_chosen;
        m_crowded = crowded;
        return changed;
    }

private:
    bool m_folded = false;
    bool m_chosen = false;
    bool m_crowded = false;
};

} // namespace weft
