import { querySynonymIdSchema, querySynonymInputSchema } from '../../../shared/query-synonyms';
import { accountProcedure, router } from '../../trpc/trpc';

/** Synonyms the Queries chat understands (the chat itself speaks on the chatbot hub). */
export const queriesRouter = router({
  synonyms: accountProcedure.query(({ ctx }) => ctx.services.querySynonyms.list(ctx.account)),
  addSynonym: accountProcedure
    .input(querySynonymInputSchema)
    .mutation(({ ctx, input }) => ctx.services.querySynonyms.add(ctx.account, input)),
  removeSynonym: accountProcedure
    .input(querySynonymIdSchema)
    .mutation(({ ctx, input }) => ctx.services.querySynonyms.remove(ctx.account, input.id)),
});
