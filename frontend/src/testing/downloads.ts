import { vi } from 'vitest';

/** Every file the page saves (through a link's download), with the Blob it was made of. */
export function captureDownloads() {
  const blobs: Blob[] = [];
  const saved: { name: string; blob: Blob }[] = [];
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    value: (blob: Blob) => `blob:${blobs.push(blob)}`,
  });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs[Number(this.href.split(':').at(-1)) - 1];
    if (blob) saved.push({ name: this.download, blob });
  });
  return saved;
}

/** jsdom's Blob has no text(): read it the old way. */
export function read(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!blob) {
      reject(new Error('nothing was saved'));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      resolve(reader.result as string);
    };
    reader.readAsText(blob);
  });
}
