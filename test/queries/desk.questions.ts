/**
 * Questions over a generated support desk (fixture.ts: employees, tickets), as a user would ask
 * them, with hand-written SQL for the expected rows. Today is 2025-06-15. Tickets have one date
 * (opened_at); employees have hired_on.
 */
import { month, quarter, range } from './expected-sql';
import type { QuestionCase } from './question-case';

const E = 'desk.employees';
const T = 'desk.tickets';

const PRIORITIES = ['low', 'normal', 'high', 'urgent'];
const STATUSES = ['solved', 'closed', 'open', 'pending'];
const CHANNELS = ['email', 'chat', 'phone', 'web form'];
const AREAS = ['Billing', 'Login', 'Mobile app', 'Reporting', 'Integrations', 'Shipping'];
const DEPARTMENTS = ['Support', 'Engineering', 'Sales', 'Finance'];
const OFFICES = ['Lisbon', 'Berlin', 'Toronto', 'Nairobi'];

export const DESK_QUESTIONS: QuestionCase[] = [
  { kind: 'count', q: 'how many tickets', sql: `SELECT count(*) FROM ${T}` },
  { kind: 'count', q: 'How many tickets do we have in total?', sql: `SELECT count(*) FROM ${T}` },
  { kind: 'count', q: 'number of employees', sql: `SELECT count(*) FROM ${E}` },
  { kind: 'count', q: 'how many employees work remotely', sql: `SELECT count(*) FROM ${E} WHERE is_remote` },
  { kind: 'count', q: 'how many remote employees', sql: `SELECT count(*) FROM ${E} WHERE is_remote` },
  { kind: 'count', q: 'how many employees are not remote', sql: `SELECT count(*) FROM ${E} WHERE NOT is_remote` },
  { kind: 'count', q: 'how many escalated tickets', sql: `SELECT count(*) FROM ${T} WHERE is_escalated` },
  { kind: 'count', q: 'number of tickets not escalated', sql: `SELECT count(*) FROM ${T} WHERE NOT is_escalated` },
  { kind: 'count', q: 'how many distinct assignees', sql: `SELECT count(DISTINCT assignee) FROM ${T}` },
  { kind: 'count', q: 'how many different job titles', sql: `SELECT count(DISTINCT job_title) FROM ${E}` },
  { kind: 'count', q: 'how many offices', sql: `SELECT count(DISTINCT office) FROM ${E}` },
  { kind: 'sum', q: 'total salary', sql: `SELECT sum(salary) FROM ${E}` },
  { kind: 'sum', q: 'total payroll of employees by salary', sql: `SELECT sum(salary) FROM ${E}`, expect: 'rows' },
  { kind: 'sum', q: 'total replies', sql: `SELECT sum(reply_count) FROM ${T}` },
  { kind: 'sum', q: 'sum of reply count', sql: `SELECT sum(reply_count) FROM ${T}` },
  { kind: 'avg', q: 'average salary', sql: `SELECT avg(salary) FROM ${E}` },
  {
    kind: 'avg',
    q: 'what is the average salary of remote employees',
    sql: `SELECT avg(salary) FROM ${E} WHERE is_remote`,
  },
  { kind: 'avg', q: 'average first response minutes', sql: `SELECT avg(first_response_minutes) FROM ${T}` },
  { kind: 'avg', q: 'average satisfaction', sql: `SELECT avg(satisfaction) FROM ${T}` },
  {
    kind: 'avg',
    q: 'mean satisfaction of solved tickets',
    sql: `SELECT avg(satisfaction) FROM ${T} WHERE status = 'solved'`,
  },
  { kind: 'avg', q: 'average replies per ticket', sql: `SELECT avg(reply_count) FROM ${T}` },
  { kind: 'minmax', q: 'highest salary', sql: `SELECT max(salary) FROM ${E}` },
  {
    kind: 'minmax',
    q: 'lowest salary in Engineering',
    sql: `SELECT min(salary) FROM ${E} WHERE department = 'Engineering'`,
  },
  {
    kind: 'minmax',
    q: 'longest first response minutes',
    sql: `SELECT max(first_response_minutes) FROM ${T}`,
    expect: 'rows',
  },
  {
    kind: 'minmax',
    q: 'max first response minutes of urgent tickets',
    sql: `SELECT max(first_response_minutes) FROM ${T} WHERE priority = 'urgent'`,
  },
  { kind: 'minmax', q: 'earliest hire date', sql: `SELECT min(hired_on) FROM ${E}` },
  { kind: 'minmax', q: 'when was the latest ticket opened', sql: `SELECT max(opened_at) FROM ${T}` },
  { kind: 'group', q: 'tickets by priority', sql: `SELECT priority, count(*) FROM ${T} GROUP BY 1` },
  { kind: 'group', q: 'tickets by status', sql: `SELECT status, count(*) FROM ${T} GROUP BY 1` },
  { kind: 'group', q: 'number of tickets per channel', sql: `SELECT channel, count(*) FROM ${T} GROUP BY 1` },
  { kind: 'group', q: 'tickets per product area', sql: `SELECT product_area, count(*) FROM ${T} GROUP BY 1` },
  { kind: 'group', q: 'tickets by assignee', sql: `SELECT assignee, count(*) FROM ${T} GROUP BY 1` },
  {
    kind: 'group',
    q: 'average satisfaction by assignee',
    sql: `SELECT assignee, avg(satisfaction) FROM ${T} GROUP BY 1`,
  },
  {
    kind: 'group',
    q: 'average first response minutes by priority',
    sql: `SELECT priority, avg(first_response_minutes) FROM ${T} GROUP BY 1`,
  },
  { kind: 'group', q: 'employees by department', sql: `SELECT department, count(*) FROM ${E} GROUP BY 1` },
  { kind: 'group', q: 'headcount per office', sql: `SELECT office, count(*) FROM ${E} GROUP BY 1`, expect: 'rows' },
  { kind: 'group', q: 'number of employees per office', sql: `SELECT office, count(*) FROM ${E} GROUP BY 1` },
  { kind: 'group', q: 'average salary by department', sql: `SELECT department, avg(salary) FROM ${E} GROUP BY 1` },
  { kind: 'group', q: 'total salary per office', sql: `SELECT office, sum(salary) FROM ${E} GROUP BY 1` },
  { kind: 'group', q: 'max salary by job title', sql: `SELECT job_title, max(salary) FROM ${E} GROUP BY 1` },
  {
    kind: 'group',
    q: 'employees by department and office',
    sql: `SELECT department, office, count(*) FROM ${E} GROUP BY 1, 2`,
  },
  {
    kind: 'group',
    q: 'tickets by priority and status',
    sql: `SELECT priority, status, count(*) FROM ${T} GROUP BY 1, 2`,
  },
  {
    kind: 'group',
    q: 'escalated tickets by product area',
    sql: `SELECT product_area, count(*) FROM ${T} WHERE is_escalated GROUP BY 1`,
  },
  {
    kind: 'group',
    q: 'remote employees per department',
    sql: `SELECT department, count(*) FROM ${E} WHERE is_remote GROUP BY 1`,
  },
  { kind: 'grain', q: 'tickets per month', sql: `SELECT ${month('opened_at')}, count(*) FROM ${T} GROUP BY 1` },
  { kind: 'grain', q: 'monthly tickets', sql: `SELECT ${month('opened_at')}, count(*) FROM ${T} GROUP BY 1` },
  {
    kind: 'grain',
    q: 'tickets opened per week last month',
    sql: `SELECT strftime(opened_at, '%G-W%V'), count(*) FROM ${T} WHERE ${range('opened_at', '2025-05-01', '2025-05-31')} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'tickets by quarter',
    sql: `SELECT ${quarter('opened_at')}, count(*) FROM ${T} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'average satisfaction per month',
    sql: `SELECT ${month('opened_at')}, avg(satisfaction) FROM ${T} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'employees hired per year',
    sql: `SELECT strftime(hired_on, '%Y'), count(*) FROM ${E} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'hires by year',
    sql: `SELECT strftime(hired_on, '%Y'), count(*) FROM ${E} GROUP BY 1`,
    expect: 'rows',
  },
  {
    kind: 'grain',
    q: 'urgent tickets per month this year',
    sql: `SELECT ${month('opened_at')}, count(*) FROM ${T} WHERE priority = 'urgent' AND ${range('opened_at', '2025-01-01', '2025-12-31')} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'daily tickets in the past 7 days',
    sql: `SELECT strftime(opened_at, '%Y-%m-%d'), count(*) FROM ${T} WHERE ${range('opened_at', '2025-06-09', '2025-06-15')} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'total replies per month by channel',
    sql: `SELECT ${month('opened_at')}, channel, sum(reply_count) FROM ${T} GROUP BY 1, 2`,
  },
  {
    kind: 'top',
    q: 'top 3 assignees by number of tickets',
    sql: `SELECT assignee, count(*) FROM ${T} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 5 assignees by average satisfaction',
    sql: `SELECT assignee, avg(satisfaction) FROM ${T} GROUP BY 1 ORDER BY 2 DESC NULLS LAST, 1 LIMIT 5`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 3 product areas by tickets',
    sql: `SELECT product_area, count(*) FROM ${T} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'bottom 2 product areas by number of tickets',
    sql: `SELECT product_area, count(*) FROM ${T} GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 2`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 5 employees by salary',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${E} ORDER BY salary DESC, _row_id LIMIT 5`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 3 departments by average salary',
    sql: `SELECT department, avg(salary) FROM ${E} GROUP BY 1 ORDER BY 2 DESC LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'bottom 3 offices by total salary',
    sql: `SELECT office, sum(salary) FROM ${E} GROUP BY 1 ORDER BY 2 ASC LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 10 tickets by reply count',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${T} ORDER BY reply_count DESC, _row_id LIMIT 10`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 5 tickets by first response minutes last month',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${T} WHERE ${range('opened_at', '2025-05-01', '2025-05-31')} ORDER BY first_response_minutes DESC, _row_id LIMIT 5`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 3 job titles by headcount',
    sql: `SELECT job_title, count(*) FROM ${E} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`,
    ordered: true,
    expect: 'rows',
  },
  {
    kind: 'top',
    q: 'top 2 channels by urgent tickets',
    sql: `SELECT channel, count(*) FROM ${T} WHERE priority = 'urgent' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 2`,
    ordered: true,
  },
  {
    kind: 'compare',
    q: 'how many employees earn more than 80000',
    sql: `SELECT count(*) FROM ${E} WHERE salary > 80000`,
  },
  {
    kind: 'compare',
    q: 'employees with salary over 100k',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${E} WHERE salary > 100000 ORDER BY _row_id`,
  },
  {
    kind: 'compare',
    q: 'number of employees with salary between 50000 and 70000',
    sql: `SELECT count(*) FROM ${E} WHERE salary BETWEEN 50000 AND 70000`,
  },
  {
    kind: 'compare',
    q: 'how many employees with a salary under 45000',
    sql: `SELECT count(*) FROM ${E} WHERE salary < 45000`,
  },
  {
    kind: 'compare',
    q: 'tickets with more than 5 replies',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${T} WHERE reply_count > 5 ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'compare',
    q: 'how many tickets with reply count over 6',
    sql: `SELECT count(*) FROM ${T} WHERE reply_count > 6`,
  },
  {
    kind: 'compare',
    q: 'how many tickets with first response minutes above 300',
    sql: `SELECT count(*) FROM ${T} WHERE first_response_minutes > 300`,
  },
  {
    kind: 'compare',
    q: 'tickets with satisfaction at least 4 by assignee',
    sql: `SELECT assignee, count(*) FROM ${T} WHERE satisfaction >= 4 GROUP BY 1`,
  },
  {
    kind: 'compare',
    q: 'how many tickets have satisfaction of 2 or less',
    sql: `SELECT count(*) FROM ${T} WHERE satisfaction <= 2`,
  },
  {
    kind: 'compare',
    q: 'how many tickets with satisfaction below 3',
    sql: `SELECT count(*) FROM ${T} WHERE satisfaction < 3`,
  },
  {
    kind: 'compare',
    q: 'number of tickets with first response minutes between 10 and 60',
    sql: `SELECT count(*) FROM ${T} WHERE first_response_minutes BETWEEN 10 AND 60`,
  },
  {
    kind: 'compare',
    q: 'how many tickets are not solved',
    sql: `SELECT count(*) FROM ${T} WHERE status IS DISTINCT FROM 'solved'`,
  },
  {
    kind: 'compare',
    q: 'tickets not closed by priority',
    sql: `SELECT priority, count(*) FROM ${T} WHERE status IS DISTINCT FROM 'closed' GROUP BY 1`,
  },
  {
    kind: 'compare',
    q: 'employees not in Support by department',
    sql: `SELECT department, count(*) FROM ${E} WHERE department <> 'Support' GROUP BY 1`,
  },
  ...PRIORITIES.map((p) => ({
    kind: 'value',
    q: `how many ${p} priority tickets`,
    sql: `SELECT count(*) FROM ${T} WHERE priority = '${p}'`,
  })),
  ...PRIORITIES.map((p) => ({
    kind: 'value',
    q: `${p} tickets by status`,
    sql: `SELECT status, count(*) FROM ${T} WHERE priority = '${p}' GROUP BY 1`,
  })),
  ...STATUSES.map((s) => ({
    kind: 'value',
    q: `how many ${s} tickets`,
    sql: `SELECT count(*) FROM ${T} WHERE status = '${s}'`,
  })),
  ...STATUSES.map((s) => ({
    kind: 'value',
    q: `average replies of ${s} tickets`,
    sql: `SELECT avg(reply_count) FROM ${T} WHERE status = '${s}'`,
  })),
  ...CHANNELS.map((c) => ({
    kind: 'value',
    q: `how many tickets came by ${c}`,
    sql: `SELECT count(*) FROM ${T} WHERE channel = '${c}'`,
  })),
  ...CHANNELS.map((c) => ({
    kind: 'value',
    q: `average first response minutes for ${c} tickets`,
    sql: `SELECT avg(first_response_minutes) FROM ${T} WHERE channel = '${c}'`,
  })),
  ...AREAS.map((a) => ({
    kind: 'value',
    q: `how many ${a} tickets`,
    sql: `SELECT count(*) FROM ${T} WHERE product_area = '${a}'`,
  })),
  ...AREAS.map((a) => ({
    kind: 'value',
    q: `${a} tickets per month`,
    sql: `SELECT ${month('opened_at')}, count(*) FROM ${T} WHERE product_area = '${a}' GROUP BY 1`,
  })),
  ...DEPARTMENTS.map((d) => ({
    kind: 'value',
    q: `how many employees in ${d}`,
    sql: `SELECT count(*) FROM ${E} WHERE department = '${d}'`,
  })),
  ...DEPARTMENTS.map((d) => ({
    kind: 'value',
    q: `average salary in ${d}`,
    sql: `SELECT avg(salary) FROM ${E} WHERE department = '${d}'`,
  })),
  ...OFFICES.map((o) => ({
    kind: 'value',
    q: `employees in the ${o} office`,
    sql: `SELECT * EXCLUDE (_row_id) FROM ${E} WHERE office = '${o}' ORDER BY _row_id`,
  })),
  ...OFFICES.map((o) => ({
    kind: 'value',
    q: `total salary of the ${o} office`,
    sql: `SELECT sum(salary) FROM ${E} WHERE office = '${o}'`,
  })),
  {
    kind: 'value',
    q: 'urgent billing tickets',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${T} WHERE priority = 'urgent' AND product_area = 'Billing' ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'value',
    q: 'how many open urgent tickets',
    sql: `SELECT count(*) FROM ${T} WHERE status = 'open' AND priority = 'urgent'`,
  },
  {
    kind: 'value',
    q: 'pending login tickets by channel',
    sql: `SELECT channel, count(*) FROM ${T} WHERE status = 'pending' AND product_area = 'Login' GROUP BY 1`,
  },
  {
    kind: 'value',
    q: 'remote software engineers',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${E} WHERE is_remote AND job_title = 'Software Engineer' ORDER BY _row_id`,
  },
  { kind: 'value', q: 'how many Team Leads', sql: `SELECT count(*) FROM ${E} WHERE job_title = 'Team Lead'` },
  {
    kind: 'value',
    q: 'average salary of Support Agents',
    sql: `SELECT avg(salary) FROM ${E} WHERE job_title = 'Support Agent'`,
  },
  {
    kind: 'period',
    q: 'how many tickets last month',
    sql: `SELECT count(*) FROM ${T} WHERE ${range('opened_at', '2025-05-01', '2025-05-31')}`,
  },
  {
    kind: 'period',
    q: 'tickets opened this year',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${T} WHERE ${range('opened_at', '2025-01-01', '2025-12-31')} ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'period',
    q: 'number of tickets in Q3 2024',
    sql: `SELECT count(*) FROM ${T} WHERE ${range('opened_at', '2024-07-01', '2024-09-30')}`,
  },
  {
    kind: 'period',
    q: 'urgent tickets since January',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${T} WHERE priority = 'urgent' AND opened_at >= DATE '2025-01-01' ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'period',
    q: 'how many tickets between 1 March and 15 April 2025',
    sql: `SELECT count(*) FROM ${T} WHERE ${range('opened_at', '2025-03-01', '2025-04-15')}`,
  },
  {
    kind: 'period',
    q: 'tickets in the past 7 days by priority',
    sql: `SELECT priority, count(*) FROM ${T} WHERE ${range('opened_at', '2025-06-09', '2025-06-15')} GROUP BY 1`,
  },
  {
    kind: 'period',
    q: 'how many tickets yesterday',
    sql: `SELECT count(*) FROM ${T} WHERE ${range('opened_at', '2025-06-14', '2025-06-14')}`,
  },
  {
    kind: 'period',
    q: 'average satisfaction last quarter',
    sql: `SELECT avg(satisfaction) FROM ${T} WHERE ${range('opened_at', '2025-01-01', '2025-03-31')}`,
  },
  {
    kind: 'period',
    q: 'escalated tickets last week',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${T} WHERE is_escalated AND ${range('opened_at', '2025-06-02', '2025-06-08')} ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'period',
    q: 'how many employees were hired in 2024',
    sql: `SELECT count(*) FROM ${E} WHERE hired_on BETWEEN DATE '2024-01-01' AND DATE '2024-12-31'`,
  },
  {
    kind: 'period',
    q: 'employees hired since 2023',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${E} WHERE hired_on >= DATE '2023-01-01' ORDER BY _row_id`,
  },
  {
    kind: 'period',
    q: 'employees hired before 2020',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${E} WHERE hired_on < DATE '2020-01-01' ORDER BY _row_id`,
  },
  {
    kind: 'period',
    q: 'tickets per channel in December 2024',
    sql: `SELECT channel, count(*) FROM ${T} WHERE ${range('opened_at', '2024-12-01', '2024-12-31')} GROUP BY 1`,
  },
  {
    kind: 'period',
    q: 'total replies this quarter',
    sql: `SELECT sum(reply_count) FROM ${T} WHERE ${range('opened_at', '2025-04-01', '2025-06-30')}`,
  },
  {
    kind: 'period',
    q: 'top 3 assignees by tickets last month',
    sql: `SELECT assignee, count(*) FROM ${T} WHERE ${range('opened_at', '2025-05-01', '2025-05-31')} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'list',
    q: 'list employees in Finance',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${E} WHERE department = 'Finance' ORDER BY _row_id`,
  },
  {
    kind: 'list',
    q: 'show full names of remote employees',
    sql: `SELECT full_name FROM ${E} WHERE is_remote ORDER BY _row_id`,
  },
  {
    kind: 'list',
    q: 'job titles of employees in Toronto',
    sql: `SELECT job_title FROM ${E} WHERE office = 'Toronto' ORDER BY _row_id`,
  },
  { kind: 'ambiguous', q: 'how many by status', sql: '', expect: 'suggest' },
  { kind: 'ambiguous', q: 'how many by channel', sql: '', expect: 'suggest' },
  { kind: 'cannot', q: 'how many vacation days are left', sql: '', expect: 'cannot' },
  { kind: 'cannot', q: 'average satisfaction of employees', sql: '', expect: 'cannot' },
];
