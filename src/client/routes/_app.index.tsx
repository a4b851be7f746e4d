import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { createFileRoute, useRouter } from '@tanstack/react-router';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { useMe } from '../lib/session';
import { useAccess } from '../lib/use-access';
import { SERVICES_NAV } from '../shell/nav-items';
import { IntegrationDataChart } from './-components/integration-data-chart';

export const Route = createFileRoute('/_app/')({
  component: HomePage,
});

const STEPS = [
  { area: 'Integrations', text: 'Import data from your remote sources.' },
  { area: 'Tables', text: 'Add data manually or import from file.' },
  { area: 'Models', text: 'View and manage your Models.' },
  { area: 'Automations', text: 'Set up and monitor automated workflows.' },
] as const;

function HomePage() {
  const { data: me } = useMe();
  const router = useRouter();
  const access = useAccess();
  const firstName = me?.name.split(' ')[0] ?? '';
  return (
    <Stack gap="xl">
      <Stack gap={4}>
        <Group gap="sm">
          <Title order={1} size="h2">
            Welcome{firstName ? `, ${firstName}` : ''}
          </Title>
          {/* A read_only member can open every area but change nothing in it: say so up front. */}
          {!access.loading && !access.canWrite && <ViewOnlyBadge />}
        </Group>
        <Text c="dimmed">Bring your data together in four steps.</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
        {STEPS.map((step, index) => {
          const nav = SERVICES_NAV.find((n) => n.label === step.area);
          if (!nav) return null;
          return (
            <Card
              key={step.area}
              padding="lg"
              className="mantine-focus-auto"
              component="a"
              href={nav.to}
              onClick={(event) => {
                event.preventDefault();
                router.history.push(nav.to);
              }}
              style={{ cursor: 'pointer' }}
              aria-label={`${index + 1}. ${step.area}`}
            >
              <Group justify="space-between" mb="md">
                <ThemeIcon size={40} radius="md" variant="light">
                  <nav.icon size={22} />
                </ThemeIcon>
                <Badge variant="default" size="lg" circle>
                  {index + 1}
                </Badge>
              </Group>
              <Text fw={650} size="lg">
                {step.area}
              </Text>
              <Text size="sm" c="dimmed" mt={4} mih={40}>
                {step.text}
              </Text>
              <Anchor component="span" size="sm" mt="md">
                <Group gap={4}>
                  Open {step.area}
                  <IconArrowRight size={14} />
                </Group>
              </Anchor>
            </Card>
          );
        })}
      </SimpleGrid>
      <IntegrationDataChart />
    </Stack>
  );
}
