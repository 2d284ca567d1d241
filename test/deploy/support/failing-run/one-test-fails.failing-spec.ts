it('fails on purpose', () => {
  expect('the failure').toBe('seen in the exit status');
});
