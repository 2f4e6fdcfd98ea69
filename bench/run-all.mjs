// `npm run bench`: every benchmark, results printed and kept in bench/results/.
import { benchActivation } from './activation.mjs';
import { benchHostStartup } from './host-startup.mjs';

await benchHostStartup();
await benchActivation();
