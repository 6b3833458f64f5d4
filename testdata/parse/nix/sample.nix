# A small package set and NixOS module, to exercise the Nix grammar.
{ lib
, stdenv
, fetchFromGitHub
, buildGoModule
, makeWrapper
, git
, enableDocs ? true
, extraFlags ? [ ]
, ...
}@args:

let
  inherit (lib) optional optionals concatStringsSep mkOption types;

  version = "0.4.2";
  greeting = "Grüße — こんにちは — ❄️";

  # A helper that turns an attribute set into command-line flags.
  toFlags = attrs:
    concatStringsSep " " (lib.mapAttrsToList (name: value: "--${name}=${toString value}") attrs);

  src = fetchFromGitHub {
    owner = "loupe-dev";
    repo = "loupe";
    rev = "v${version}";
    hash = "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
  };

  platforms = with lib.platforms; linux ++ darwin;

  defaults = rec {
    jobs = 4;
    timeout = jobs * 30;
    color = true;
  };
in
buildGoModule rec {
  pname = "loupe";
  inherit version src;

  vendorHash = null;
  subPackages = [ "cmd/loupe" ];

  nativeBuildInputs = [ makeWrapper ] ++ optional enableDocs git;

  ldflags = [
    "-s"
    "-w"
    "-X main.version=${version}"
  ] ++ extraFlags;

  preBuild = ''
    echo "building ${pname} ${version}"
    export GOFLAGS="-trimpath"
  '';

  postInstall = lib.optionalString stdenv.isLinux ''
    wrapProgram $out/bin/loupe \
      --prefix PATH : ${lib.makeBinPath [ git ]} \
      --add-flags "${toFlags defaults}"
  '';

  doCheck = !stdenv.isDarwin;
  checkFlags = optionals doCheck [ "-short" ];

  passthru = {
    tests = {
      version = builtins.toString version;
      sum = builtins.foldl' (a: b: a + b) 0 [ 1 2 3 ];
      paths = [ ./README.md /etc/hosts <nixpkgs> ];
      url = https://example.org/loupe;
    };
    inherit greeting;
    count = if args ? extraFlags then builtins.length extraFlags else 0;
    isLarge = defaults.jobs > 2 && defaults.color || false;
  };

  meta = with lib; {
    description = "Structural code search";
    longDescription = ''
      loupe finds code by its structure, not its text.
      ''${escaped} interpolation stays literal.
    '';
    homepage = "https://github.com/loupe-dev/loupe";
    license = licenses.mit;
    maintainers = [ ];
    inherit platforms;
    mainProgram = "loupe";
  };

  module = { config, ... }: {
    options.services.loupe.enable = mkOption {
      type = types.bool;
      default = false;
      description = "Whether to run the loupe indexer.";
    };
    config = lib.mkIf config.services.loupe.enable {
      systemd.services.loupe.serviceConfig.ExecStart = "${placeholder "out"}/bin/loupe index";
    };
  };

  assertions = assert version != ""; [ (-1) (1.5) (src.rev or "none") ];
}
