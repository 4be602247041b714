import { test, expect } from '@playwright/test';
import { axeViolations } from './axe.ts';

// The scans elsewhere all expect nothing: this page shows that they would name what is wrong,
// every element of it.
test('a scan names each element in violation, with the reason', async ({ page }) => {
  await page.setContent(
    [
      '<html lang="en"><head><title>Planted</title></head><body><main><h1>Planted</h1>',
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">',
      '<p style="color:#eee;background:#fff">pale</p><p style="color:#eee;background:#fff">pale</p>',
      '<button></button></main></body></html>',
    ].join(''),
  );
  const found = await axeViolations(page);
  expect(found.map((line) => line.split(': ')[0])).toEqual([
    'button-name (critical) at button',
    'color-contrast (serious) at p:nth-child(3)',
    'color-contrast (serious) at p:nth-child(4)',
    'image-alt (critical) at img',
  ]);
  expect(found[1]).toContain('insufficient color contrast');
});
