import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import i18n, { LAZY_NAMESPACES } from '../i18n';
import { takeContractErrors } from './contract-check';

// Screens' dictionaries normally load with their route; components under test get them all.
beforeAll(async () => {
  await i18n.loadNamespaces(LAZY_NAMESPACES);
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
