// gdlkit's reveal.js plugin (build/gdl-reveal.js): the custom elements
// (build/elements.js) inside reveal.js slides.
//
//   <script src="reveal.js"></script>
//   <script type="module">
//     import GdlReveal from 'https://…/build/gdl-reveal.js';
//     Reveal.initialize({ plugins: [GdlReveal] });
//   </script>
//
// - Keys go to the deck unless a tree or a board has the focus (click it or
//   Tab to it); Esc gives them back to the deck.
// - Fragments step a tree: `<span class="fragment" data-gdl-step="20"></span>`
//   shows the first <gdl-tree> of the slide at step 20 when the fragment is
//   shown (`data-gdl-target="#id"` picks another tree; `end` is the last
//   step); hiding it goes back to the previous fragment's step, or the
//   tree's own `step` attribute.
// - PDF export (`?print-pdf`): every tree is printed at the step of the
//   fragments shown on its page.

import './elements.js';

const WIDGETS = 'gdl-tree, gdl-play';

/** The custom element that has the focus, if any. */
const focusedWidget = () => document.activeElement?.closest?.(WIDGETS) ?? null;

/** The trees of a slide that fragments step, with the fragments of each. */
function steppedTrees(slide) {
  const trees = new Map();
  for (const fragment of slide.querySelectorAll('[data-gdl-step]')) {
    const target = fragment.dataset.gdlTarget;
    const tree = target ? slide.querySelector(target) : slide.querySelector('gdl-tree');
    if (!tree) continue;
    if (!trees.has(tree)) trees.set(tree, []);
    trees.get(tree).push(fragment);
  }
  return trees;
}

/** Sets each stepped tree of `slide` to the step of its last visible fragment. */
function syncSlide(slide) {
  if (!slide) return;
  for (const [tree, fragments] of steppedTrees(slide)) {
    if (!('gdlBaseStep' in tree.dataset)) tree.dataset.gdlBaseStep = tree.getAttribute('step') ?? '0';
    const shown = fragments.filter((f) => f.classList.contains('visible'));
    const step = shown.length ? shown[shown.length - 1].dataset.gdlStep : tree.dataset.gdlBaseStep;
    if (tree.getAttribute('step') !== step) tree.setAttribute('step', step);
  }
}

const GdlReveal = {
  id: 'gdlkit',
  init(deck) {
    // The deck ignores keys while a tree or a board has the focus (they step or move there).
    deck.configure({ keyboardCondition: () => !focusedWidget() });
    // Esc inside a widget gives the keys back to the deck (and does not open the overview).
    window.addEventListener(
      'keydown',
      (e) => {
        const widget = e.key === 'Escape' && focusedWidget();
        if (!widget) return;
        e.stopImmediatePropagation();
        e.preventDefault();
        document.activeElement.blur();
        deck.getRevealElement?.()?.focus?.();
      },
      true,
    );
    const syncCurrent = () => syncSlide(deck.getCurrentSlide());
    for (const type of ['ready', 'slidechanged', 'fragmentshown', 'fragmenthidden']) deck.on(type, syncCurrent);
    // Printing: the fragments shown on each page decide its trees' steps.
    deck.on('pdf-ready', () => {
      for (const page of document.querySelectorAll('.pdf-page, .reveal .slides section')) syncSlide(page);
    });
  },
};

export default GdlReveal;
