/**
 * Hard limits that keep parsing and rendering linear and the output tree shallow.
 * Input beyond MAX_INPUT_LENGTH is dropped; quotes nested deeper than
 * MAX_NESTING_DEPTH stay literal text and deeper list markers are clamped.
 */
export const MAX_INPUT_LENGTH = 6 * 1024 * 1024;
export const MAX_NESTING_DEPTH = 16;
/** Longest id accepted in `[guide|…]`, `[image|…]`, `[document|…]` (fits a JS safe integer). */
export const MAX_ID_DIGITS = 15;
