// German for the pages' words (see i18n.js): English string -> German string.
export const DE = {
};
