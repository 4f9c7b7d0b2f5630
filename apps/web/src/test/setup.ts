import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import i18n, { LAZY_NAMESPACES, storedLanguage } from '../i18n';
import { takeContractErrors } from './contract-check';

// Test files share their worker's modules (isolate: false in vitest.config.ts): each starts as
// if alone, in the language a first visit gets, with no toast left over and the real fetch.
const realFetch = globalThis.fetch;
beforeAll(async () => {
  localStorage.clear();
  await i18n.changeLanguage(storedLanguage());
  document.documentElement.lang = i18n.language;
  // Screens' dictionaries normally load with their route; components under test get them all.
  await i18n.loadNamespaces(LAZY_NAMESPACES);
});
afterAll(() => {
  notifications.clean();
  globalThis.fetch = realFetch;
});

afterEach(() => {
  cleanup();
  localStorage.clear();
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
