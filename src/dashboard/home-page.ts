// Home: the balance, today's and this month's volume, 30 days of daily volume, the latest records.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import type { ListedPayment } from '../payments/payment-statuses.js';
import type { TransactionRecord } from '../transactions/transaction-record.js';
import { formatDay, formatMonth } from './format.js';
import type { HomeFigures } from './home-figures.js';
import { dashboardLayout, type PageFrame } from './layout.js';
import type { PaidThrough } from './paid-through.js';
import { transactionTable } from './transaction-table.js';
import { NARROW, volumeChart, WIDE } from './volume-chart.js';

const payments = (n: number) => `${n} ${n === 1 ? 'payment' : 'payments'}`;

/** One of the figures at the top of a page (home, settlements): a label, an amount, a note. */
export function figure(label: string, amount: number, note: string, testId: string): Html {
  return html`<div class="figure" data-testid="${testId}"><p class="figure-label">${label}</p><p class="figure-value">${formatRupees(amount)}</p><p class="figure-note">${note}</p></div>`;
}

export function homePage(frame: PageFrame, view: { figures: HomeFigures; recent: TransactionRecord[]; statuses: Map<string, ListedPayment>; paidThrough: Map<string, PaidThrough> }): Html {
  const { figures } = view;
  const environment = frame.session.environment;
  const chartTitle = `Completed payments per day, ${formatDay(figures.daily[0].day)} to ${formatDay(figures.today)}`;
  return dashboardLayout({
    ...frame,
    title: 'Home',
    body: html`<h1 class="page-title">${frame.session.merchant.name}</h1>
<section class="figures" aria-label="Figures">
  ${figure('Balance', figures.balance, `${environment === 'test' ? 'Test' : 'Live'} ledger, after fees and refunds`, 'balance')}
  ${figure("Today's volume", figures.todayVolume.amount, `${payments(figures.todayVolume.count)} · ${formatDay(figures.today)}`, 'today-volume')}
  ${figure("This month's volume", figures.monthVolume.amount, `${payments(figures.monthVolume.count)} · ${formatMonth(figures.today)}`, 'month-volume')}
</section>
<section class="panel chart-panel" aria-labelledby="chart-heading">
  <h2 id="chart-heading">Daily volume, last 30 days</h2>
  <div class="chart wide">${volumeChart(figures.daily, { title: chartTitle, id: 'chart-wide', size: WIDE })}</div>
  <div class="chart narrow">${volumeChart(figures.daily, { title: chartTitle, id: 'chart-narrow', size: NARROW })}</div>
  <details class="chart-table">
    <summary>Show as a table</summary>
    <table class="compact"><caption class="visually-hidden">Daily volume</caption>
      <thead><tr><th scope="col">Day</th><th scope="col" class="num">Payments</th><th scope="col" class="num">Volume</th></tr></thead>
      <tbody>${[...figures.daily].reverse().map((d) => html`<tr><td>${formatDay(d.day)}</td><td class="num">${d.count}</td><td class="num">${formatRupees(d.amount)}</td></tr>`)}</tbody>
    </table>
  </details>
</section>
<section class="panel" aria-labelledby="recent-heading">
  <div class="panel-head"><h2 id="recent-heading">Latest transactions</h2><a href="/dashboard/transactions">View all</a></div>
  ${transactionTable(view.recent, { timeZone: frame.timeZone, statuses: view.statuses, caption: 'Latest transactions', paidThrough: view.paidThrough })}
</section>`,
  });
}
