// The package as an app imports it: by name, resolved by Vite through the "browser"
// condition of docrag's exports; Vite emits docrag_bg.wasm as an asset.
import * as docrag from 'docrag';
import { run } from '../fixtures/scenario.js';

run(docrag);
