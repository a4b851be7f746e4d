// Imported first by main.ts, for its side effect alone: see threadpool.ts.
import { sizeThreadpool } from './threadpool';

sizeThreadpool();
