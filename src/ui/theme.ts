/**
 * Light or dark theme. It follows the system setting (prefers-color-scheme) until the reader picks
 * one, which is kept in localStorage under "rcb-theme" rather than in the URL: it is the reader's
 * preference, not part of what a shared link shows. index.html applies it before the first paint.
 */
import { h } from './dom';

/** What the reader chose: follow the system, or a fixed theme. */
export type ThemeChoice = 'system' | 'light' | 'dark';

/** The localStorage key (index.html reads it too). */
export const THEME_KEY = 'rcb-theme';

const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)');

/** The stored choice ('system' when none, or storage is blocked). */
export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

/** Whether a choice shows the dark theme, given the system's preference. */
export function isDark(choice: ThemeChoice, systemPrefersDark: boolean): boolean {
  return choice === 'dark' || (choice === 'system' && systemPrefersDark);
}

function apply(choice: ThemeChoice): void {
  document.documentElement.classList.toggle('dark', isDark(choice, systemDark().matches));
  document.documentElement.dataset.theme = choice;
}

/** Applies the stored theme and follows system changes while the choice is 'system'. */
export function startTheme(): void {
  apply(storedTheme());
  systemDark().addEventListener('change', () => apply(storedTheme()));
}

/** A labelled select for the theme, applying and storing what is picked. */
export function themeControl(): HTMLElement {
  const select = h('select', {
    class: 'rounded-md border border-slate-300 bg-white px-1 py-1 text-sm',
    attrs: { id: 'theme-choice' },
    on: {
      change: () => {
        const choice = select.value as ThemeChoice;
        try {
          if (choice === 'system') localStorage.removeItem(THEME_KEY);
          else localStorage.setItem(THEME_KEY, choice);
        } catch {
          // Storage blocked: the choice holds for this page only.
        }
        apply(choice);
      },
    },
  },
    h('option', { attrs: { value: 'system' } }, 'System'),
    h('option', { attrs: { value: 'light' } }, 'Light'),
    h('option', { attrs: { value: 'dark' } }, 'Dark'),
  );
  select.value = storedTheme();
  return h('label', { class: 'flex items-center gap-1 text-sm text-slate-700' }, 'Theme', select);
}
