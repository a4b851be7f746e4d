import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    Table: { defaultProps: { verticalSpacing: 'sm', highlightOnHover: true } },
    Paper: { defaultProps: { withBorder: true, radius: 'md' } },
  },
});
