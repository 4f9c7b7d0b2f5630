import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import i18n, { LANGUAGES, LAZY_NAMESPACES, storedLanguage } from '../i18n';
import { takeContractErrors } from './contract-check';
import { resetServerConnection } from '../api/connection';

// findBy… and waitFor give a screen 10 s, not 1 s, to show what it should: a debounced search
// (300 ms) and a render after it took over a second on a loaded two-core machine, and over 5 s
// on a host half as fast (the suite took 405 s there, not 104 s). A screen that never shows it
// still fails, only later.
configure({ asyncUtilTimeout: 10_000 });

// Test files share their worker's modules (isolate: false in vitest.config.ts): each starts as
// if alone, in the language a first visit gets, with no toast left over and the real fetch.
const realFetch = globalThis.fetch;
beforeAll(async () => {
  localStorage.clear();
  await i18n.changeLanguage(storedLanguage());
  document.documentElement.lang = i18n.language;
  // Screens' dictionaries normally load with their route, and only in the language shown;
  // components under test get them all, in both languages.
  await i18n.loadNamespaces(LAZY_NAMESPACES);
  await i18n.loadLanguages([...LANGUAGES]);
});
afterAll(() => {
  notifications.clean();
  globalThis.fetch = realFetch;
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  // A test that took the server away leaves none of it to the next.
  resetServerConnection();
  // A fake answer the contract refuses fails the test, even when the screen swallowed the error.
  const contractErrors = takeContractErrors();
  if (contractErrors.length > 0) {
    throw new Error(contractErrors.map((error) => error.message).join('\n\n'));
  }
});

// jsdom lacks these browser APIs that Mantine uses.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};
// Textarea's autosize listens for web fonts loading (document.fonts), which jsdom has not.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}
