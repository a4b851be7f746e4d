/** What a chart draws, made from pivot data: shared with the PDF reports the server draws. */
export * from '../../../shared/chart-data';
