/**
 * A controllable stand-in for IntersectionObserver (jsdom has none): tests decide when an
 * observed element "scrolls near" with `FakeIntersectionObserver.bringNear(element)`.
 * Install it with `vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver)`.
 */
export class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];

  static reset(): void {
    FakeIntersectionObserver.instances = [];
  }

  /** Tells every observer watching `element` that it now intersects its (margin-grown) root. */
  static bringNear(element: Element): void {
    FakeIntersectionObserver.move(element, true);
  }

  /** … or that it no longer does (scrolled past, or pushed down by content above it). */
  static takeAway(element: Element): void {
    FakeIntersectionObserver.move(element, false);
  }

  private static move(element: Element, isIntersecting: boolean): void {
    for (const observer of FakeIntersectionObserver.instances) {
      if (observer.observed.has(element)) observer.report(element, isIntersecting);
    }
  }

  /** How many elements are being watched right now, over all observers. */
  static watching(): number {
    return FakeIntersectionObserver.instances.reduce((total, observer) => total + observer.observed.size, 0);
  }

  readonly rootMargin: string;
  private readonly callback: IntersectionObserverCallback;
  private readonly observed = new Set<Element>();

  constructor(callback: IntersectionObserverCallback, options: IntersectionObserverInit = {}) {
    this.callback = callback;
    this.rootMargin = options.rootMargin ?? '0px';
    FakeIntersectionObserver.instances.push(this);
  }

  observe(element: Element): void {
    this.observed.add(element);
  }

  unobserve(element: Element): void {
    this.observed.delete(element);
  }

  disconnect(): void {
    this.observed.clear();
  }

  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }

  private report(element: Element, isIntersecting: boolean): void {
    const entry = { target: element, isIntersecting } as IntersectionObserverEntry;
    this.callback([entry], this as unknown as IntersectionObserver);
  }
}
