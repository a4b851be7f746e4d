/**
 * Words users add so the Queries chat understands their own terms: 'clients' for the customers
 * table, 'revenue' for its amount column. A synonym names a table (columnKey null) or one column.
 */
import { z } from 'zod';
import { tableTypeSchema } from './tables';

export const querySynonymInputSchema = z.object({
  word: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/[\p{L}\p{N}]/u, 'A synonym needs a letter or digit.'),
  tableType: tableTypeSchema,
  tableId: z.string().min(1).max(100),
  columnKey: z.string().min(1).max(200).nullable().default(null),
});
export type QuerySynonymInput = z.output<typeof querySynonymInputSchema>;

export const querySynonymIdSchema = z.object({ id: z.string().min(1).max(100) });

export interface QuerySynonym {
  id: string;
  word: string;
  tableType: z.infer<typeof tableTypeSchema>;
  tableId: string;
  columnKey: string | null;
}
