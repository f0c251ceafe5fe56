#!/usr/bin/env python3
"""The shipped price table read back by genai-prices' own reader: every model of the PyPI package the table was
exported from (scripts/pricing/export-genai-prices) is priced by both, on three dates and at two sizes (one past
the long-context tiers), and the prices must be identical to the last decimal.

    genai_prices_round_trip.py resources/pricing/genai-prices.json

Prints one line of counts; exits 1 with the first differences listed, 77 when genai-prices is not importable
(scripts/setup installs it; SKILLFORGE_GENAI_PRICES_PYTHON names that interpreter)."""
import datetime
import importlib.metadata
import json
import sys

try:
    from genai_prices import data, types
except ImportError as error:
    print(f'SKIP: genai-prices is not installed for {sys.executable} ({error}); scripts/setup installs it')
    sys.exit(77)

DATES = [datetime.datetime(2025, 6, 1, 12, tzinfo=datetime.timezone.utc),
         datetime.datetime(2026, 3, 1, 3, tzinfo=datetime.timezone.utc),  # inside off-peak windows
         datetime.datetime(2026, 12, 7, 12, tzinfo=datetime.timezone.utc)]
USAGES = [types.Usage(input_tokens=12_345, cache_read_tokens=4_000, cache_write_tokens=1_000, output_tokens=2_345),
          types.Usage(input_tokens=400_000, cache_read_tokens=100_000, cache_write_tokens=20_000,
                      output_tokens=50_000)]


def price(model, provider, usage, when):
    try:
        return str(model.calc_price(usage, provider, genai_request_timestamp=when).total_price)
    except Exception as error:  # a model with no price then: both readers must say so alike
        return f'{type(error).__name__}'


def main():
    with open(sys.argv[1], encoding='utf-8') as file:
        shipped = {p.id: p for p in types._providers_from_raw(json.load(file))}
    packaged = {p.id: p for p in data.providers}
    problems = []
    if set(shipped) != set(packaged):
        problems.append(f'providers differ: only shipped {sorted(set(shipped) - set(packaged))}, '
                        f'only packaged {sorted(set(packaged) - set(shipped))}')
    models = compared = 0
    for provider_id in sorted(set(shipped) & set(packaged)):
        ours, theirs = shipped[provider_id], packaged[provider_id]
        our_models = {m.id: m for m in ours.models}
        for model in theirs.models:
            mine = our_models.get(model.id)
            if mine is None:
                problems.append(f'{provider_id}/{model.id}: not in the shipped table')
                continue
            models += 1
            for when in DATES:
                for usage in USAGES:
                    compared += 1
                    expected, got = price(model, theirs, usage, when), price(mine, ours, usage, when)
                    if expected != got:
                        problems.append(f'{provider_id}/{model.id} on {when:%Y-%m-%d %H:%M}: '
                                        f'genai-prices {expected}, shipped table {got}')
        if len(our_models) != len(theirs.models):
            problems.append(f'{provider_id}: {len(our_models)} models shipped, {len(theirs.models)} packaged')
    version = importlib.metadata.version('genai-prices')
    print(f'genai-prices {version}: {models} models of {len(packaged)} providers, {compared} prices compared, '
          f'{len(problems)} differences')
    for problem in problems[:20]:
        print(f'  {problem}')
    return 1 if problems or models == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
