import { qrCodeDataUrl } from './qr-code';

describe('qrCodeDataUrl', () => {
  it('draws the link as an SVG data URL, for an <img>', async () => {
    const url = await qrCodeDataUrl('http://10.0.0.5:8000/#/join?code=K7QX-M4TP');
    expect(url.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    const svg = decodeURIComponent(url.slice(url.indexOf(',') + 1));
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    // Drawn as paths only: nothing in it could run.
    expect(svg).not.toMatch(/<script|on\w+=/i);
  });
});
