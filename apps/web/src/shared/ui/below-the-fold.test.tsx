// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { BelowTheFold } from './below-the-fold';

afterEach(cleanup);

describe('BelowTheFold', () => {
  it('leaves its sections out of the first commit and draws them in the next', () => {
    const commits: string[] = [];
    render(
      <Profiler id="page" onRender={() => commits.push(document.body.textContent)}>
        <h1>First screen</h1>
        <BelowTheFold>
          <p>News</p>
        </BelowTheFold>
      </Profiler>,
    );
    expect(commits[0]).toBe('First screen');
    expect(commits.at(-1)).toBe('First screenNews');
    expect(screen.getByText('News')).toBeDefined();
  });
});
