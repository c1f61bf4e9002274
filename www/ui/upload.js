// The drop zone and file picker, with one progress bar per file. Files are added one
// after another: conversion is CPU-bound and runs on one thread (the collection's
// worker, or the page's), so running several at once would not be faster.
import { el, count, errorView } from './dom.js';

const STAGES = ['read', 'parse', 'chunk', 'embed', 'store'];
const LABEL = { read: 'reading', parse: 'parsing', chunk: 'chunking', embed: 'embedding', store: 'storing', done: 'done' };

/**
 * Wires `dropZone` and `input` to `add(file, onProgress)` (which resolves to the
 * stored DocumentInfo). Progress rows go into `list`. `onIdle` runs after each batch.
 */
export function setupUpload({ dropZone, input, list, add, onIdle }) {
  let queue = Promise.resolve();

  function row(file) {
    const bar = el('progress', { max: 1, value: 0, ariaLabel: `progress of ${file.name}` });
    const stage = el('span', { className: 'stage', textContent: 'waiting' });
    const item = el('li', { className: 'upload' }, el('span', { className: 'name', textContent: file.name }), bar, stage);
    list.prepend(item);
    return { item, bar, stage };
  }

  async function addOne(file, view) {
    view.item.dataset.state = 'working';
    try {
      const info = await add(file, (p) => {
        // Each stage takes its share of the bar; within a stage, done/total.
        const i = p.stage === 'done' ? STAGES.length : Math.max(0, STAGES.indexOf(p.stage));
        const within = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
        view.bar.value = p.stage === 'done' ? 1 : (i + within) / STAGES.length;
        view.stage.textContent = p.stage === 'done' ? 'done' : `${LABEL[p.stage] ?? p.stage} ${p.total ? `${p.done}/${p.total}` : ''}`.trim();
      });
      view.bar.value = 1;
      view.stage.textContent = `done: ${count(info.chunkCount, 'chunk')}`;
      view.item.dataset.state = 'done';
    } catch (err) {
      view.item.dataset.state = 'failed';
      view.stage.replaceChildren(errorView(err));
    }
  }

  function handle(files) {
    const views = files.map((f) => [f, row(f)]);
    queue = queue.then(async () => {
      for (const [file, view] of views) {
        await addOne(file, view);
        // Let the bar paint before the next conversion (synchronous on the page's thread).
        await new Promise((r) => setTimeout(r, 0));
      }
      onIdle?.();
    });
    return queue;
  }

  input.addEventListener('change', () => {
    const files = [...input.files];
    input.value = '';
    if (files.length) handle(files);
  });
  dropZone.addEventListener('dragover', (e) => {
    e.preventDefault();
    dropZone.classList.add('over');
  });
  dropZone.addEventListener('dragleave', () => dropZone.classList.remove('over'));
  dropZone.addEventListener('drop', (e) => {
    e.preventDefault();
    dropZone.classList.remove('over');
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length) handle(files);
  });
  // The whole zone opens the picker from the keyboard too.
  dropZone.addEventListener('keydown', (e) => {
    if (e.target === dropZone && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      input.click();
    }
  });
  return { handle, idle: () => queue };
}
