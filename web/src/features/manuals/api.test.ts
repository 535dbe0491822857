import { describe, expect, it } from 'vitest';
import { fileProblem, manualFormData, manualParams, sizeText, MAX_BYTES } from './api';

describe('manual helpers', () => {
  it('writes sizes for people', () => {
    expect(sizeText(900)).toBe('900 B');
    expect(sizeText(350 * 1024)).toBe('350 KB');
    expect(sizeText(1.25 * 1024 * 1024)).toBe('1.3 MB');
  });

  it('refuses other file types and files over 20 MB before the upload', () => {
    expect(fileProblem({ name: 'Guide.PDF', size: 1000 })).toBeNull();
    expect(fileProblem({ name: 'wiring.jpeg', size: 1000 })).toBeNull();
    expect(fileProblem({ name: 'setup.exe', size: 1000 })).toBe('type');
    expect(fileProblem({ name: 'big.pdf', size: MAX_BYTES + 1 })).toBe('size');
  });

  it('sends the fields trimmed and the file only when one was chosen', () => {
    const without = manualFormData({ productId: 3, title: ' Guide ', language: 'en' });
    expect(without.get('title')).toBe('Guide');
    expect(without.get('productId')).toBe('3');
    expect(without.get('file')).toBeNull();
    const file = new File(['%PDF-1.4'], 'g.pdf', { type: 'application/pdf' });
    const withFile = manualFormData({ productId: 3, title: 'G', file });
    expect(withFile.get('fileName')).toBe('g.pdf');
    expect(withFile.get('language')).toBe('all');
  });

  it('bounds the page size', () => {
    expect(manualParams({ page: 0, limit: 500, keyword: ' a ', language: '' })).toEqual({
      page: 1,
      limit: 100,
      keyword: 'a',
      language: '',
    });
  });
});
