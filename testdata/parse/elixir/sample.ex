# A bank account process, to exercise the Elixir grammar.
defmodule Bank.Account do
  @moduledoc """
  A bank account kept in a GenServer.

  Grüße — こんにちは — 🏦
  """
  use GenServer
  require Logger
  alias Bank.{Ledger, Notifier}
  import Enum, only: [reduce: 3, map: 2]

  @type t :: %__MODULE__{id: String.t(), balance: integer(), history: [tuple()]}
  defstruct id: nil, balance: 0, history: []

  @max_withdrawal 10_000
  @greeting "Grüß Gott"

  defguardp is_amount(x) when is_integer(x) and x > 0

  # Client API

  @spec start_link(keyword()) :: GenServer.on_start()
  def start_link(opts) do
    id = Keyword.fetch!(opts, :id)
    GenServer.start_link(__MODULE__, %__MODULE__{id: id}, name: via(id))
  end

  def deposit(id, amount) when is_amount(amount), do: GenServer.call(via(id), {:deposit, amount})
  def withdraw(id, amount) when is_amount(amount), do: GenServer.call(via(id), {:withdraw, amount})
  def balance(id), do: GenServer.call(via(id), :balance)

  defp via(id), do: {:via, Registry, {Bank.Registry, id}}

  # Server callbacks

  @impl true
  def init(state) do
    Logger.info("#{@greeting}: opening account #{state.id}")
    {:ok, state}
  end

  @impl true
  def handle_call({:deposit, amount}, _from, %{balance: b} = state) do
    state = %{state | balance: b + amount, history: [{:deposit, amount} | state.history]}
    {:reply, {:ok, state.balance}, state}
  end

  def handle_call({:withdraw, amount}, _from, state) do
    cond do
      amount > @max_withdrawal ->
        {:reply, {:error, :limit_exceeded}, state}

      amount > state.balance ->
        {:reply, {:error, :insufficient_funds}, state}

      true ->
        new = %{state | balance: state.balance - amount}
        Notifier.notify(state.id, "withdrew #{amount}")
        {:reply, {:ok, new.balance}, %{new | history: [{:withdraw, amount} | new.history]}}
    end
  end

  def handle_call(:balance, _from, state), do: {:reply, state.balance, state}

  @impl true
  def handle_info(:audit, state) do
    total =
      state.history
      |> map(fn
        {:deposit, a} -> a
        {:withdraw, a} -> -a
      end)
      |> reduce(0, &(&1 + &2))

    if total != state.balance, do: Logger.error("ledger mismatch for #{state.id}")
    Ledger.record(state.id, total)
    {:noreply, state}
  end

  def summary(%__MODULE__{history: history}) do
    for {kind, amount} <- history, kind == :deposit, into: %{} do
      {amount, String.upcase(to_string(kind))}
    end
  end

  def parse(input) do
    with {:ok, json} <- Jason.decode(input),
         %{"amount" => amount} when is_integer(amount) <- json do
      {:ok, amount}
    else
      {:error, _} = err -> err
      _ -> {:error, :invalid}
    end
  end

  def classify(value) do
    case value do
      0 -> :zero
      n when n < 0 -> :negative
      [_ | _] -> :list
      'charlist' -> :charlist
      ~r/^\d+$/ -> :regex
      <<head::binary-size(2), _rest::binary>> -> {:binary, head}
      _ -> :other
    end
  end
end
